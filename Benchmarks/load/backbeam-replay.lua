-- wrk script: sends the pre-signed request targets of BACKBEAM_REQUESTS_FILE (backbeam_requests.py), each
-- once (a nonce is accepted only once), with the Host header that addresses the project
-- (api-<env>-<project>.<domain>, BACKBEAM_HOST). Thread i of wrk -t n reads BACKBEAM_REQUESTS_FILE.i (the
-- lines i, i+n, i+2n, ... of the file, split by sections/backbeam.sh) one line per request; a thread that
-- runs out of lines starts over, and the server then answers its replays with 400 InvalidNonce, which wrk
-- reports as non-2xx responses (the driver flags such a run).
--
-- Why a line is read and its request written per request rather than all formatted in init: wrk runs each
-- thread's init on its main thread and starts that thread right after, before the next thread's init, and
-- it counts every answer from the first thread's start while timing the run from the last one's. Formatting
-- 900,000 requests took about 2.3 s per thread, so the first thread loaded the server alone for that long
-- and its answers inflated the rate (and init's CPU was counted as the run's). Reading a line and joining
-- four strings costs wrk about as much as picking a formatted one.
local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("index", counter)
end

function init(args)
  path = os.getenv("BACKBEAM_REQUESTS_FILE") .. "." .. index
  file = assert(io.open(path, "r"))
  prefix = "GET "
  suffix = " HTTP/1.1\r\nHost: " .. os.getenv("BACKBEAM_HOST") .. "\r\n\r\n"
end

function request()
  local line = file:read("*l")
  if line == nil then
    file:close()
    file = assert(io.open(path, "r"))
    line = file:read("*l")
  end
  return prefix .. line .. suffix
end
