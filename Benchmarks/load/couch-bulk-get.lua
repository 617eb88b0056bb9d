-- wrk script: POST /couch/bench/_bulk_get of 100 random existing document ids (from COUCH_IDS_FILE, one
-- per line) per request: {"docs":[{"id":"..."},...]}. Documents/s is requests/s x 100. Every request is
-- formatted in init, before the measurement (2,000 different bodies per wrk thread, sent in turn): wrk
-- shares the two cores with the server, and building 100-id bodies per request would take CPU from it.
-- Credentials: the Basic header in COUCH_AUTH. couch_bulk_get_check.py checks the answers' shape.
wrk.headers["Authorization"] = os.getenv("COUCH_AUTH")
wrk.headers["Content-Type"] = "application/json"

local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
end

function init(args)
  local ids = {}
  for line in io.lines(os.getenv("COUCH_IDS_FILE")) do
    if #line > 0 then ids[#ids + 1] = line end
  end
  math.randomseed(id * 104729)
  local per_request = tonumber(os.getenv("COUCH_BULK_GET_IDS") or "100")
  requests = {}
  for r = 1, 2000 do
    local docs = {}
    for i = 1, per_request do
      docs[i] = '{"id":"' .. ids[math.random(1, #ids)] .. '"}'
    end
    requests[r] = wrk.format("POST", "/couch/bench/_bulk_get", nil, '{"docs":[' .. table.concat(docs, ",") .. ']}')
  end
  next_request = 1
end

function request()
  local text = requests[next_request]
  next_request = next_request + 1
  if next_request > #requests then next_request = 1 end
  return text
end
