// npm start's banner: waits until every service answers (saying every 15 s what it still waits
// for), then prints where things are, one working curl example per service and how long the start
// took. `node scripts/start-banner.mjs --examples` prints only the examples, without waiting (tests
// run them).
import { pathToFileURL } from 'node:url';

const DEMO_POST_ID = 900000001;
const FALLBACK_CATEGORY = 'animals.birb';

const quote = (text) => `'${String(text).replace(/'/g, `'\\''`)}'`;

const fetchJson = async (url, init = {}) => {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(3000) });
  return { status: res.status, body: await res.json().catch(() => undefined) };
};

/** The demo board's URL when BOARD_URL=demo, else undefined. */
export const demoBoardUrl = (env) =>
  (env.BOARD_URL ?? '').toLowerCase() === 'demo' ? `http://127.0.0.1:${env.DEMO_BOARD_PORT || 3009}` : undefined;

/**
 * One working example per service, as shell command lines: create a short link and follow it
 * (its 302, so no internet is needed), a random image, a thumbnail PUT and its check.
 */
export function bannerExamples({ key, urls, category, demoPost }) {
  const auth = `-H ${quote(`Authorization: ${key}`)}`;
  const body = quote(JSON.stringify({ url: 'https://example.com/' }));
  const create = `curl -s ${auth} -H 'Content-Type: application/json' -d ${body} ${urls.shortener}/create`;
  const thumbs = demoPost
    ? [
        `curl -s -X PUT ${auth} ${urls.thumbs}/${demoPost.id}/gif`,
        `curl -s ${auth} ${urls.thumbs}/check/${demoPost.md5}/gif`,
      ]
    : [`curl -s -X PUT ${auth} ${urls.thumbs}/<post id or md5>/gif`, `curl -s ${auth} ${urls.thumbs}/check/<md5>/gif`];
  return {
    shortener: [`curl -sI "$(${create} | sed -E 's/.*"fullURL":"([^"]+)".*/\\1/')"`],
    images: [`curl -s '${urls.images}/${category}?amount=1'`],
    thumbs,
  };
}

/** The first enabled category of the images service, or a demo one. */
async function firstCategory(imagesUrl) {
  try {
    const { body } = await fetchJson(`${imagesUrl}/categories`);
    return body?.data?.enabled?.[0]?.db ?? FALLBACK_CATEGORY;
  } catch {
    return FALLBACK_CATEGORY;
  }
}

/** The demo video's md5, read from the demo board. */
async function demoPostOf(env) {
  const board = demoBoardUrl(env);
  if (!board) return undefined;
  try {
    const { body } = await fetchJson(`${board}/posts/${DEMO_POST_ID}.json`);
    return body?.post?.file?.md5 ? { id: DEMO_POST_ID, md5: body.post.file.md5 } : undefined;
  } catch {
    return undefined;
  }
}

/** Seconds since `startedMs` (unix ms), one decimal, as the start's other steps say it. */
export const secondsSince = (startedMs, now = Date.now()) => (Math.max(0, now - startedMs) / 1000).toFixed(1);

const PROGRESS_EVERY_MS = 15_000;

async function waitFor(urls, timeoutMs = 120_000) {
  const started = Date.now();
  const deadline = started + timeoutMs;
  let nextProgress = started + PROGRESS_EVERY_MS;
  const up = async (url) => {
    try {
      return (await fetch(url, { signal: AbortSignal.timeout(2000) })).status < 500;
    } catch {
      return false;
    }
  };
  for (const url of urls) {
    while (!(await up(url))) {
      if (Date.now() > deadline) throw new Error(`${url} still does not answer after ${timeoutMs / 1000} s`);
      if (Date.now() >= nextProgress) {
        console.error(`[start]   start the services: still waiting for ${url}, ${secondsSince(started)} s`);
        nextProgress += PROGRESS_EVERY_MS;
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

async function examplesOf(env) {
  const urls = { shortener: env.SHORTENER_URL, images: env.IMAGES_URL, thumbs: env.THUMBS_URL };
  return bannerExamples({
    key: env.DEMO_KEY || '<key>',
    urls,
    category: await firstCategory(urls.images),
    demoPost: await demoPostOf(env),
  });
}

const indent = (lines) => lines.map((line, i) => `${i === 0 ? '' : ' '.repeat(20)}${line}`).join('\n');

async function main() {
  const env = process.env;
  if (process.argv.includes('--examples')) {
    const examples = await examplesOf(env);
    for (const [service, lines] of Object.entries(examples))
      for (const line of lines) console.log(`${service}\t${line}`);
    return;
  }
  const board = demoBoardUrl(env);
  try {
    await waitFor([
      `${env.SHORTENER_URL}/online`,
      `${env.IMAGES_URL}/online`,
      `${env.THUMBS_URL}/online`,
      `http://127.0.0.1:${env.MEDIA_PORT}/`,
      ...(board ? [`${board}/posts/${DEMO_POST_ID}.json`] : []),
    ]);
  } catch (error) {
    console.error(`[start] ${error.message}`);
    process.exit(1);
  }
  const now = Date.now();
  const servicesTook = env.SERVICES_MS ? secondsSince(Number(env.SERVICES_MS), now) : undefined;
  const startTook = env.START_MS ? secondsSince(Number(env.START_MS), now) : undefined;
  if (servicesTook) console.error(`[start] start the services: all answering in ${servicesTook} s`);
  const examples = await examplesOf(env);
  const thumbsNote = board
    ? '(demo board: posts 900000001-900000004; repeat the check until "done", then open its url)'
    : '(uses the real image board; `npm start --demo` runs offline with demo posts)';
  console.log(`
  ============================================================
   Pawlink is running   (Ctrl-C stops everything)${startTook ? `\n   started in ${startTook} s${servicesTook ? ` (the services took ${servicesTook} s of it)` : ''}` : ''}
     shortener        ${env.SHORTENER_URL}
     images           ${env.IMAGES_URL}
     thumbs           ${env.THUMBS_URL}
     console          ${env.SHORTENER_URL}/console/   (link owners: sign in with the demo key)
     queue dashboard  ${env.THUMBS_URL}/admin/queues/   (log in with the demo key)
     thumbnails       ${env.MEDIA_URL}
     image files      ${env.IMAGES_MEDIA_URL}
     image board      ${board ? `${board} (demo board)` : env.BOARD_URL}
     workers          ${env.WORKERS}
     image short links ${env.SHORT_LINKS ?? 'off'}
     demo API key     ${env.DEMO_KEY}
  ------------------------------------------------------------
   Try:
     short link     ${indent(examples.shortener)}
     random image   ${indent(examples.images)}
     thumbnail      ${indent(examples.thumbs)}
                    ${thumbsNote}
  ============================================================
`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
