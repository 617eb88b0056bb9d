# Quartet: multi-stage build. The steps mirror the README: install the C libraries, build, run.
ARG SWIFT_VERSION=6.3

# ---- build stage: the official Swift image ----
FROM swift:${SWIFT_VERSION}-bookworm AS build
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libsqlite3-dev libssl-dev libcrypt-dev zlib1g-dev pkg-config \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Resolve dependencies first so code changes do not refetch them. The versions are the ones pinned in the
# committed Package.resolved, as for every other build; resolution fails rather than choose others.
COPY Package.swift Package.resolved ./
RUN swift package resolve --force-resolved-versions
COPY Sources ./Sources
COPY Tests ./Tests
RUN swift build -c release --static-swift-stdlib --product quartet \
 && mkdir -p /out/bin \
 && cp "$(swift build -c release --show-bin-path)/quartet" /out/bin/quartet
COPY Migrations /out/bin/Migrations
COPY Config /out/Config

# ---- runtime stage: slim Debian with only the runtime libraries ----
# libvips42 resizes images (the Files module's variants). Quartet loads it on first use rather than
# linking it, so the build stage needs nothing for it; without recommends it brings only the libraries
# its loaders link against.
FROM debian:bookworm-slim
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      libsqlite3-0 libssl3 libcrypt1 zlib1g libvips42 ca-certificates curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin quartet \
 && mkdir -p /data && chown quartet:quartet /data
COPY --from=build /out/bin /app
COPY --from=build /out/Config /app/Config
USER quartet
# Listen on all interfaces inside the container; the data directory is the volume.
ENV QUARTET_SERVER_HOST=0.0.0.0 \
    QUARTET_SERVER_PORT=8080 \
    QUARTET_STORAGE_DATA_DIR=/data
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD curl -fsS http://127.0.0.1:8080/health || exit 1
# Exec form: quartet is PID 1's child-free process and receives SIGTERM directly.
ENTRYPOINT ["/app/quartet"]
CMD ["serve"]
