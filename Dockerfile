# walkd container image.
#
#   docker build -t walkd .
#   docker run --rm -p 50051:50051 -p 9464:9464 -v walkd-data:/var/lib/walkd walkd
#
# Stage 1 ("build") compiles walkd, walkctl and walkgrid on debian:12 with the Debian-packaged
# gRPC/protobuf/RocksDB toolchain. Stage 2 ("runtime") is debian:12-slim with only the shared
# libraries those binaries link against, a non-root user (walkd, uid/gid 10001) and the
# entrypoint script (deploy/docker-entrypoint.sh). See docs/operations.md.

FROM debian:12 AS build

# python3: tests/deploy/CMakeLists.txt does find_program(python3 REQUIRED) at configure time.
ARG DEBIAN_FRONTEND=noninteractive
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      cmake ninja-build g++ pkg-config \
      libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler grpc-proto \
      libabsl-dev librocksdb-dev \
      libgtest-dev libgmock-dev libbenchmark-dev \
      prometheus-cpp-dev librecast-dev nlohmann-json3-dev libcli11-dev \
      python3 \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /src
COPY . .

# Release build with Ninja, two jobs; install into a staging root (/out) so that the runtime
# stage can copy exactly what `cmake --install` produced.
# Only the installed programs are built: the tests and benchmarks run in CI, not here.
RUN cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release \
 && cmake --build build -j2 --target walkd walkctl walkgrid \
 && DESTDIR=/out cmake --install build --prefix /usr/local --strip \
 && for b in walkd walkctl walkgrid; do \
      test -x "/out/usr/local/bin/$b" || { echo "cmake --install did not produce bin/$b" >&2; exit 1; }; \
    done

# Work out which Debian packages provide the shared libraries the installed binaries need, so the
# runtime stage installs exactly those (libgrpc++1.51, libgrpc29, libprotobuf32, librocksdb7.8,
# libabsl20220623, libprometheus-cpp-core1.0, libprometheus-cpp-pull1.0, libcivetweb1, zlib1g,
# librecast1 when linked, and their usual dependencies). Fails the build if a library is missing
# or not owned by any package.
RUN set -eu; \
    ldd /out/usr/local/bin/walkd /out/usr/local/bin/walkctl /out/usr/local/bin/walkgrid > /tmp/ldd.txt; \
    if grep -F 'not found' /tmp/ldd.txt; then echo "unresolved shared libraries (above)" >&2; exit 1; fi; \
    awk '$2 == "=>" && $3 ~ /^\// { print $3 }' /tmp/ldd.txt | sort -u > /tmp/libs.txt; \
    : > /tmp/packages.txt; \
    while read -r lib; do \
      dir=$(realpath "$(dirname "$lib")"); base=$(basename "$lib"); \
      owner=$(dpkg-query -S "$dir/$base" 2>/dev/null || dpkg-query -S "${dir#/usr}/$base" 2>/dev/null) \
        || { echo "no Debian package owns $lib" >&2; exit 1; }; \
      echo "${owner%%:*}" >> /tmp/packages.txt; \
    done < /tmp/libs.txt; \
    sort -u /tmp/packages.txt > /out/runtime-packages.txt; \
    echo "runtime packages:"; cat /out/runtime-packages.txt


FROM debian:12-slim AS runtime

ARG DEBIAN_FRONTEND=noninteractive
COPY --from=build /out/runtime-packages.txt /tmp/runtime-packages.txt
RUN apt-get update \
 && apt-get install -y --no-install-recommends $(cat /tmp/runtime-packages.txt) \
 && rm -rf /var/lib/apt/lists/* /tmp/runtime-packages.txt

# Fixed uid/gid so volumes and Kubernetes securityContext (runAsUser: 10001) line up.
RUN groupadd --system --gid 10001 walkd \
 && useradd --system --uid 10001 --gid walkd --home-dir /var/lib/walkd --no-create-home \
      --shell /usr/sbin/nologin walkd \
 && install -d -o walkd -g walkd -m 0750 /var/lib/walkd \
 && install -d -o root -g root -m 0755 /etc/walkd

COPY --from=build /out/usr/local/bin/walkd /out/usr/local/bin/walkctl /out/usr/local/bin/walkgrid /usr/local/bin/
COPY deploy/docker-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
COPY deploy/walkd.toml /etc/walkd/walkd.toml.example

# Smoke test: every binary resolves its libraries and starts.
RUN chmod 0755 /usr/local/bin/docker-entrypoint.sh \
 && for b in walkd walkctl walkgrid; do \
      if ldd "/usr/local/bin/$b" | grep -F 'not found'; then echo "$b: missing libraries" >&2; exit 1; fi; \
      "/usr/local/bin/$b" --help > /dev/null || { echo "$b --help failed" >&2; exit 1; }; \
    done

LABEL org.opencontainers.image.title="walkd" \
      org.opencontainers.image.description="gRPC walk-query daemon (walkd, walkctl, walkgrid)"

# gRPC API (and grpc.health.v1), then Prometheus /metrics, /healthz, /readyz.
EXPOSE 50051 9464

# Cached default world and, later, the store. Declared after the chown above so a fresh named
# volume starts out owned by walkd.
VOLUME ["/var/lib/walkd"]
WORKDIR /var/lib/walkd

USER walkd

# Same probe as deploy/docker-compose.yml: `walkctl health` on the address walkd was started with
# (WALKD_LISTEN, --listen or the config's; the entrypoint records it). start-period covers
# generating the default world on the first start with an empty volume.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["/usr/local/bin/docker-entrypoint.sh", "health"]

# walkd handles SIGTERM: health goes NOT_SERVING, in-flight calls drain (--shutdown-grace-s),
# exit 0. The entrypoint execs walkd, so walkd is PID 1 and receives the signal directly.
# Give `docker stop -t` more than the grace period.
STOPSIGNAL SIGTERM

ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]
CMD []
