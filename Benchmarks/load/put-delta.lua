-- wrk script: Datastore put_delta, run with as many wrk threads as connections (-tN -cN) so that each
-- thread owns exactly one connection and one datastore: a put_delta must name the datastore's current
-- revision, and the Lua state of a wrk thread is the only place that can remember it between requests.
-- Handles come from DS_HANDLES_FILE (one per line, line k for thread k); the token from DS_TOKEN.
local counter = 0
local threads = {}
function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
  threads[#threads + 1] = thread
end

local function encode(s)
  return (s:gsub("[^%w%-%._~]", function(c) return string.format("%%%02X", string.byte(c)) end))
end

function init(args)
  local k = 0
  for line in io.lines(os.getenv("DS_HANDLES_FILE")) do
    k = k + 1
    if k == id then handle = line end
  end
  rev, n, conflicts, failures = 0, 0, 0, 0
  wrk.headers["Authorization"] = "Bearer " .. os.getenv("DS_TOKEN")
  wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
end

function request()
  n = n + 1
  local changes = string.format('[["I","items","r%d",{"n":{"I":"%d"},"title":"item %d"}]]', n, n, n)
  local body = "handle=" .. encode(handle) .. "&rev=" .. rev .. "&nonce=" .. id .. "-" .. n
    .. "&changes=" .. encode(changes)
  return wrk.format("POST", "/1/datastores/put_delta", nil, body)
end

function response(status, headers, body)
  local r = body:match('^{"rev":(%d+)}')
  if status == 200 and r then
    rev = tonumber(r)
  elseif status == 200 then
    conflicts = conflicts + 1
  else
    failures = failures + 1
  end
end

function done(summary, latency, requests)
  local c, f = 0, 0
  for _, t in ipairs(threads) do
    c = c + (t:get("conflicts") or 0)
    f = f + (t:get("failures") or 0)
  end
  io.write(string.format("put_delta conflicts: %d, failures: %d\n", c, f))
end
