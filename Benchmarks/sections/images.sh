# Section "images" of Benchmarks/run.sh: first-time thumbnails of a 12-megapixel JPEG to fit 200x200
# through the Files module's ImageVariants (the pipeline the download routes use), against libvips' own
# vipsthumbnail command on the same file in the same run; the peak resident set while 16 first-time
# thumbnails run at once; and the cost of a cache hit.
# image-thumbs names its path dependency "../.." as package "Quartet": build it through a shadow tree
# whose root is called Quartet, as the writes section does for storage-writes.
need vipsthumbnail libvips-tools
SHADOW=$ROOT/Benchmarks/image-thumbs/.build/shadow/Quartet
mkdir -p "$SHADOW/Benchmarks/image-thumbs"
cp "$ROOT/Package.swift" "$SHADOW/Package.swift"
cp "$ROOT/Benchmarks/image-thumbs/Package.swift" "$SHADOW/Benchmarks/image-thumbs/Package.swift"
for d in Sources Tests Migrations; do ln -sfn "$ROOT/$d" "$SHADOW/$d"; done
ln -sfn "$ROOT/Benchmarks/image-thumbs/Sources" "$SHADOW/Benchmarks/image-thumbs/Sources"
IT_BUILD=(swift build -c release --package-path "$SHADOW/Benchmarks/image-thumbs"
          --scratch-path "$ROOT/Benchmarks/image-thumbs/.build/shadow-build")
"${IT_BUILD[@]}" >>"$OUT/build.log" 2>&1 || { summary "  image-thumbs failed to build: $(tail -2 "$OUT/build.log" | tr '\n' ' ')"; }
IT=$("${IT_BUILD[@]}" --show-bin-path)/image-thumbs
WD=$(new_tmp)

# A 12-megapixel (4000x3000) photo-like JPEG made now, never committed: smooth colour waves under
# gentle noise, quality 90 (a few MB, like a phone camera's).
vips sines "$WD/r.v" 4000 3000 --hfreq 0.5 --vfreq 0.3 && vips sines "$WD/g.v" 4000 3000 --hfreq 0.2 --vfreq 0.7 \
  && vips sines "$WD/b.v" 4000 3000 --hfreq 0.9 --vfreq 0.1 && vips bandjoin "$WD/r.v $WD/g.v $WD/b.v" "$WD/rgb.v" \
  && vips linear "$WD/rgb.v" "$WD/lin.v" 90 128 && vips gaussnoise "$WD/noise.v" 4000 3000 --sigma 6 --mean 0 \
  && vips add "$WD/lin.v" "$WD/noise.v" "$WD/sum.v" && vips cast "$WD/sum.v" "$WD/photo.v" uchar \
  && vips jpegsave "$WD/photo.v" "$WD/photo.jpg" --Q 90 >>"$OUT/images.log" 2>&1 \
  && vips jpegsave "$WD/photo.v" "$WD/progressive.jpg" --Q 90 --interlace >>"$OUT/images.log" 2>&1 \
  || summary "  warning: could not make the 12-megapixel JPEG: $(tail -2 "$OUT/images.log" | tr '\n' ' ')"
rm -f "$WD"/*.v
PHOTO=$WD/photo.jpg
summary "images: source $(vipsheader "$PHOTO" 2>/dev/null | cut -d: -f2- | cut -c2-40), $(( $(stat -c %s "$PHOTO") / 1024 )) KiB"

COUNT=${IMAGE_COUNT:-$((DURATION * 3))}
ROUNDS=${IMAGE_ROUNDS:-5}
CPUS=$(nproc)
mkdir -p "$WD/in"
for i in $(seq 1 "$COUNT"); do ln -s "$PHOTO" "$WD/in/p$i.jpg"; done
rate() { python3 -c "print(round($COUNT / ($2 - $1), 2))"; }
# Alternating rounds, each: vipsthumbnail as one process (its own thread pool, one file after another),
# vipsthumbnail as one process per core, and Quartet. vipsthumbnail gets COUNT names for the same file
# (so each output is its own), fit 200x200, quality 85 and metadata stripped like Quartet's variants.
# Quartet makes the same COUNT thumbnails through ImageVariants (one decode worker per core, as the
# daemon runs it; 16 requesting threads) into a fresh cache, so every one is decoded. On a busy shared
# machine single runs swing by a third; the medians of the rounds are compared, each side's better way.
V1=(); VN=(); QR=()
for round in $(seq 1 "$ROUNDS"); do
  rm -rf "$WD/out" "$WD/cache"; mkdir -p "$WD/out"
  t0=$(date +%s.%N)
  (cd "$WD/in" && vipsthumbnail p*.jpg -s 200x200 -o "$WD/out/tn_%s.jpg[Q=85,strip]") >>"$OUT/images.log" 2>&1
  t1=$(date +%s.%N)
  (cd "$WD/in" && ls p*.jpg | xargs -P "$CPUS" -n $(( (COUNT + CPUS - 1) / CPUS )) vipsthumbnail -s 200x200 \
    -o "$WD/out/tn_%s.jpg[Q=85,strip]") >>"$OUT/images.log" 2>&1
  t2=$(date +%s.%N)
  V1+=("$(rate "$t0" "$t1")"); VN+=("$(rate "$t1" "$t2")")
  QR+=("$("$IT" first "$PHOTO" "$COUNT" 16 "$CPUS" "$WD/cache" 2>>"$OUT/images.log" | awk '{print $2}')")
done
VT1=$(median "${V1[@]}"); VTN=$(median "${VN[@]}"); QT=$(median "${QR[@]}")
VT=$(python3 -c "print(max($VT1, $VTN))")
summary "vipsthumbnail, 12 MP JPEG to fit 200x200, $COUNT files per round: one process ${V1[*]}/s (median $VT1), $CPUS processes ${VN[*]}/s (median $VTN)"
summary "quartet ImageVariants, same file and size, $CPUS workers: ${QR[*]}/s (median $QT)"
summary "ratio quartet/vipsthumbnail (medians, vipsthumbnail's better way): $(ratio "$QT" "$VT") (target >= 0.8)"

# Peak RSS of the whole process (libvips loaded, one thumbnail made before) while 16 first-time
# thumbnails run at once: with the default pool (one worker per core) and with 16 workers (all 16 decoding).
P1=$("$IT" peak "$PHOTO" 16 "$CPUS" "$WD/cache3" 2>>"$OUT/images.log")
P16=$("$IT" peak "$PHOTO" 16 16 "$WD/cache4" 2>>"$OUT/images.log")
kb_to_mb() { python3 -c "print(round(${1:-0} / 1024, 1))"; }
summary "peak RSS, 16 first-time 12 MP thumbnails at once: $(kb_to_mb "$(echo "$P1" | awk '{print $2}')") MiB with $CPUS workers, $(kb_to_mb "$(echo "$P16" | awk '{print $2}')") MiB with 16 workers (before: $(kb_to_mb "$(echo "$P1" | awk '{print $4}')") MiB; target <= 400 MB)"
# A progressive JPEG cannot be decoded in one pass: libjpeg holds every coefficient of the picture
# (72 MB at 12 MP without chroma subsampling), shrink-on-load or not. Reported for the record.
PP=$("$IT" peak "$WD/progressive.jpg" 16 "$CPUS" "$WD/cache6" 2>>"$OUT/images.log")
summary "the same with a progressive 12 MP JPEG: $(kb_to_mb "$(echo "$PP" | awk '{print $2}')") MiB with $CPUS workers"

HITS=$("$IT" hits "$PHOTO" 200000 "$WD/cache5" 2>>"$OUT/images.log" | awk '{print $2}')
summary "cache hit (lookup of a made thumbnail, no HTTP): $HITS ns"
rm -rf "$WD/in" "$WD/out" "$WD"/cache*
