# Section "writes" of Benchmarks/run.sh: group commit vs one transaction per job through the Storage
# module, 64 writer threads each waiting for its job to be durable, synchronous=FULL, same run.
swift build -c release --package-path Benchmarks/storage-writes >>"$OUT/build.log" 2>&1
SW=$(swift build -c release --package-path Benchmarks/storage-writes --show-bin-path)/storage-writes
WD=$(new_tmp)
GROUP=$("$SW" 64 "$DURATION" 512 "$WD/group" | awk '{print $2}')
SINGLE=$("$SW" 64 "$DURATION" 1 "$WD/single" | awk '{print $2}')
summary "writes (64 writers, synchronous=FULL): group commit $GROUP jobs/s, one transaction per job $SINGLE jobs/s"
summary "ratio group commit/one transaction per job: $(ratio "$GROUP" "$SINGLE") (target >= 5)"
