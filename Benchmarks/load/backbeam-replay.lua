-- wrk script: sends the pre-signed request targets of BACKBEAM_REQUESTS_FILE (backbeam_requests.py), each
-- once (a nonce is accepted only once), with the Host header that addresses the project
-- (api-<env>-<project>.<domain>, BACKBEAM_HOST). Thread i of BACKBEAM_THREADS (wrk -t) takes lines i,
-- i+n, i+2n, ...; a thread that runs out of lines starts over, and the server then answers its replays with
-- 400 InvalidNonce, which wrk reports as non-2xx responses (the driver flags such a run). Every request is
-- formatted in init, before the measurement: wrk shares the two cores with the server, and building the
-- request text per request cost it about twice the CPU of a plain wrk run.
local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("index", counter)
end

function init(args)
  local threads = tonumber(os.getenv("BACKBEAM_THREADS") or "2")
  lines = {}
  local n = 0
  wrk.headers["Host"] = os.getenv("BACKBEAM_HOST")
  for line in io.lines(os.getenv("BACKBEAM_REQUESTS_FILE")) do
    n = n + 1
    if (n - index) % threads == 0 then lines[#lines + 1] = wrk.format("GET", line) end
  end
  next_line = 1
end

function request()
  local line = lines[next_line]
  next_line = next_line + 1
  if next_line > #lines then next_line = 1 end
  return line
end
