# Section "writes" of Benchmarks/run.sh: group commit vs one transaction per job, 64 writers,
# synchronous=FULL, same machine, same run. Sourced by run.sh (uses its OUT, DURATION, summary).
swift build -c release --package-path Benchmarks/storage-writes >/dev/null
SW=$(swift build -c release --package-path Benchmarks/storage-writes --show-bin-path)/storage-writes
WD=$(mktemp -d)
GROUP=$("$SW" 64 "$DURATION" 512 "$WD/group" | awk '{print $2}')
SINGLE=$("$SW" 64 "$DURATION" 1 "$WD/single" | awk '{print $2}')
summary "writes (64 writers, synchronous=FULL): group commit $GROUP jobs/s, one transaction per job $SINGLE jobs/s, ratio $(python3 -c "print(round($GROUP/max($SINGLE,1), 2))")"
rm -rf "$WD"
