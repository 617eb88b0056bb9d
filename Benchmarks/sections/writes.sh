# Section "writes" of Benchmarks/run.sh: group commit vs one transaction per job through the Storage
# module, 64 writer threads each waiting for its job to be durable, synchronous=FULL, same run.
# storage-writes names its path dependency "../.." as package "Quartet", and SwiftPM derives a path
# package's name from its directory: a checkout in a directory with another name (a worktree, a CI
# workspace) cannot resolve it. Build it through a shadow tree whose root is called Quartet and links
# to this checkout's sources; it lives under the package's (git-ignored) .build so rebuilds are incremental.
SHADOW=$ROOT/Benchmarks/storage-writes/.build/shadow/Quartet
mkdir -p "$SHADOW/Benchmarks/storage-writes"
cp "$ROOT/Package.swift" "$SHADOW/Package.swift"
cp "$ROOT/Benchmarks/storage-writes/Package.swift" "$SHADOW/Benchmarks/storage-writes/Package.swift"
for d in Sources Tests Migrations; do ln -sfn "$ROOT/$d" "$SHADOW/$d"; done
ln -sfn "$ROOT/Benchmarks/storage-writes/Sources" "$SHADOW/Benchmarks/storage-writes/Sources"
SW_BUILD=(swift build -c release --package-path "$SHADOW/Benchmarks/storage-writes"
          --scratch-path "$ROOT/Benchmarks/storage-writes/.build/shadow-build")
"${SW_BUILD[@]}" >>"$OUT/build.log" 2>&1 || { summary "  storage-writes failed to build: $(tail -2 "$OUT/build.log" | tr '\n' ' ')"; }
SW=$("${SW_BUILD[@]}" --show-bin-path)/storage-writes
WD=$(new_tmp)
GROUP=$("$SW" 64 "$DURATION" 512 "$WD/group" 2>>"$OUT/storage-writes.log" | awk '{print $2}' || true)
SINGLE=$("$SW" 64 "$DURATION" 1 "$WD/single" 2>>"$OUT/storage-writes.log" | awk '{print $2}' || true)
summary "writes (64 writers, synchronous=FULL): group commit $GROUP jobs/s, one transaction per job $SINGLE jobs/s"
summary "ratio group commit/one transaction per job: $(ratio "$GROUP" "$SINGLE") (target >= 5)"
