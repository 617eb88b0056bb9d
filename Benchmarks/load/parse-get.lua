-- wrk script: GET /parse/classes/Recipe/:id over object ids read from PARSE_IDS_FILE (one per line),
-- picked at random so that reads are spread over the whole table rather than one cached row.
wrk.headers["X-Parse-Application-Id"] = os.getenv("PARSE_APP_ID")
wrk.headers["X-Parse-REST-API-Key"] = os.getenv("PARSE_REST_KEY")

local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
end

function init(args)
  ids = {}
  for line in io.lines(os.getenv("PARSE_IDS_FILE")) do
    if #line > 0 then ids[#ids + 1] = line end
  end
  math.randomseed(id * 104729)
end

function request()
  return wrk.format("GET", "/parse/classes/Recipe/" .. ids[math.random(1, #ids)])
end
