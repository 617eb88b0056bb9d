-- wrk script: POST /parse/classes/Recipe, one new object per request.
-- Keys come from the environment the driver exports (PARSE_APP_ID, PARSE_REST_KEY).
wrk.method = "POST"
wrk.path = "/parse/classes/Recipe"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["X-Parse-Application-Id"] = os.getenv("PARSE_APP_ID")
wrk.headers["X-Parse-REST-API-Key"] = os.getenv("PARSE_REST_KEY")

local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
end

function init(args)
  n = 0
  math.randomseed(id * 7919)
end

function request()
  n = n + 1
  -- Same shape as the seeded objects, so the written rows cost what a real app's would.
  local body = string.format('{"name":"posted %d-%d","rating":%d,"calories":%d,"category":"c%d"}',
    id, n, math.random(0, 99999), math.random(0, 99999), math.random(0, 99))
  return wrk.format(nil, nil, nil, body)
end
