-- wrk script: GET /couch/bench/{id} over document ids read from COUCH_IDS_FILE (one per line), picked at
-- random so that reads are spread over the whole table. Credentials: the Basic header in COUCH_AUTH.
-- Every request is formatted in init, before the measurement, and request() only picks one: wrk shares the
-- two cores with the server, and `wrk.format` on each request was about a tenth of wrk's CPU per request
-- (16.5 against 15.0 µs, 2,000 documents, as for backbeam-replay.lua).
wrk.headers["Authorization"] = os.getenv("COUCH_AUTH")

local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
end

function init(args)
  requests = {}
  for line in io.lines(os.getenv("COUCH_IDS_FILE")) do
    if #line > 0 then requests[#requests + 1] = wrk.format("GET", "/couch/bench/" .. line) end
  end
  math.randomseed(id * 104729)
end

function request()
  return requests[math.random(1, #requests)]
end
