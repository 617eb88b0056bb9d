-- wrk script: PUT /couch/bench/{new id} of a document of about 1 KB (a create: one write job and one
-- sequence number each). Ids are unique per wrk thread and request. Credentials: COUCH_AUTH.
-- Every answer's status is counted per thread, and done() prints the counts of all threads together
-- ("status 201: N") and the first body of an answer that was not 2xx, so a run that wrk reports with
-- "Non-2xx or 3xx responses" says which answers they were.
wrk.headers["Authorization"] = os.getenv("COUCH_AUTH")
wrk.headers["Content-Type"] = "application/json"

local counter = 0
local threads = {}
function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
  table.insert(threads, thread)
end

function init(args)
  n = 0
  statuses = {}
  sample = nil
  body = '{"type":"recipe","title":"Posted recipe","rating":42,"servings":4,"vegetarian":false,' ..
         '"tags":["alpha","bravo","charlie"],"steps":"' .. string.rep("stir and wait ", 60) .. '"}'
end

function request()
  n = n + 1
  return wrk.format("PUT", "/couch/bench/put-" .. id .. "-" .. n, nil, body)
end

function response(status, headers, answer)
  statuses[status] = (statuses[status] or 0) + 1
  if (status < 200 or status > 299) and sample == nil then
    sample = status .. " " .. tostring(answer)
  end
end

function done(summary, latency, requests)
  local total, first = {}, nil
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses") or {}) do
      total[status] = (total[status] or 0) + count
    end
    first = first or thread:get("sample")
  end
  local keys = {}
  for status in pairs(total) do table.insert(keys, status) end
  table.sort(keys)
  for _, status in ipairs(keys) do
    io.write(string.format("status %d: %d\n", status, total[status]))
  end
  if first then io.write("first answer not 2xx: " .. first:sub(1, 400) .. "\n") end
end
