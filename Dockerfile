# syntax=docker/dockerfile:1
# dlprof-lint in a container, with a jlink Java runtime on Debian slim (no JDK in the image).
#
#   docker build -t dlprof-lint --build-arg GIT_COMMIT="$(git rev-parse --short=12 HEAD)" .
#   docker run --rm --user "$(id -u):$(id -g)" -v "$PWD:/work" dlprof-lint /work/run.sqlite --report html=/work/report.html
#
# Profiles and reports live on the mounted folder; the working directory is /work. See docs/install.md.

FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY . .
# The checkout's .git is not sent to the build (.dockerignore), so the commit comes in as a build argument.
ARG GIT_COMMIT=unknown
# Maven's repository is a BuildKit cache that outlives this layer: a change of the source rebuilds the layer but
# downloads no dependency again (they used to come down on every change, the source being copied first).
RUN --mount=type=cache,target=/root/.m2 \
    mvn -B -q package -DskipTests -Prelease -pl dist -am -Dgit.commit.id.abbrev="${GIT_COMMIT}" \
 && mkdir -p /opt/dlprof-lint \
 && tar -xzf dist/target/dlprof-lint-*-linux-*.tar.gz -C /opt/dlprof-lint --strip-components=1 \
 && /opt/dlprof-lint/bin/dlprof-lint --version

FROM debian:bookworm-slim
COPY --from=build /opt/dlprof-lint /opt/dlprof-lint
# Compiled rule packs are cached here; the image may run as any user (--user), who may have no home folder.
ENV DLPROF_LINT_CACHE_DIR=/tmp/dlprof-lint-cache
WORKDIR /work
# Not root: an unprivileged user with no account (give --user "$(id -u):$(id -g)" to write reports to a mounted folder).
USER 65532:65532
ENTRYPOINT ["/opt/dlprof-lint/bin/dlprof-lint"]
CMD ["--help"]
