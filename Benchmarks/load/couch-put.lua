-- wrk script: PUT /couch/bench/{new id} of a document of about 1 KB (a create: one write job and one
-- sequence number each). Ids are unique per wrk thread and request. Credentials: COUCH_AUTH.
-- No response() hook: with one, wrk parses every answer's body and calls into Lua per answer, and that CPU
-- is taken from the server on the same two cores (the recorded PUT rate fell by about 12% with it). The
-- answers' statuses are counted by the server instead (couch.sh reads /metrics before and after).
wrk.headers["Authorization"] = os.getenv("COUCH_AUTH")
wrk.headers["Content-Type"] = "application/json"

local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
end

function init(args)
  n = 0
  body = '{"type":"recipe","title":"Posted recipe","rating":42,"servings":4,"vegetarian":false,' ..
         '"tags":["alpha","bravo","charlie"],"steps":"' .. string.rep("stir and wait ", 60) .. '"}'
end

function request()
  n = n + 1
  return wrk.format("PUT", "/couch/bench/put-" .. id .. "-" .. n, nil, body)
end
