/**
 * The flags the HTTP services (shortener, images, thumbs) run Node with: `scripts/start.sh` and
 * their Dockerfiles (`NODE_OPTIONS`) carry the same ones, which `infra/test` checks, and
 * `pnpm bench` starts the services and their ceilings with them.
 *
 * A larger young generation: each request allocates short-lived objects (the parsed request,
 * headers, promises, the answer), and with V8's default 16 MB semi-spaces the scavenger ran often
 * enough to take 14–17% of a keyed GET's CPU. At 64 MB, measured with `pnpm bench images`
 * (docs/adr/0011), a keyed random image used about a quarter less CPU per request and its p99
 * fell from 2.1–2.3× to 1.5× the ceiling's. It costs up to about 100 MB more memory per process
 * under load.
 */
export const HTTP_SERVICE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];
