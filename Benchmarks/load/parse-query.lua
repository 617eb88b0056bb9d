-- wrk script: GET /parse/classes/Recipe?where={FIELD:{"$gte":R}}&order=FIELD&limit=20, R random in the
-- seeded value range, FIELD from PARSE_QUERY_FIELD ("rating" is indexed, "calories" is not).
wrk.headers["X-Parse-Application-Id"] = os.getenv("PARSE_APP_ID")
wrk.headers["X-Parse-REST-API-Key"] = os.getenv("PARSE_REST_KEY")
local field = os.getenv("PARSE_QUERY_FIELD") or "rating"

local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
end

function init(args)
  math.randomseed(id * 15485863)
end

local function encode(s)
  return (s:gsub("[^%w%-%._~]", function(c) return string.format("%%%02X", string.byte(c)) end))
end

function request()
  -- The upper part of the range is left out so that every query finds its 20 rows.
  local where = string.format('{"%s":{"$gte":%d}}', field, math.random(0, 90000))
  return wrk.format("GET", "/parse/classes/Recipe?where=" .. encode(where) .. "&order=" .. field .. "&limit=20")
end
