-- wrk script: GET /couch/bench/{id} over document ids read from COUCH_IDS_FILE (one per line), picked at
-- random so that reads are spread over the whole table. Credentials: the Basic header in COUCH_AUTH.
wrk.headers["Authorization"] = os.getenv("COUCH_AUTH")

local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
end

function init(args)
  ids = {}
  for line in io.lines(os.getenv("COUCH_IDS_FILE")) do
    if #line > 0 then ids[#ids + 1] = line end
  end
  math.randomseed(id * 104729)
end

function request()
  return wrk.format("GET", "/couch/bench/" .. ids[math.random(1, #ids)])
end
