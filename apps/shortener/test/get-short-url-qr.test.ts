import jsQRModule from 'jsqr';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, request, startHarness, uniqueUrl, type Harness } from './support.js';

// jsqr is CommonJS typed as an ES module: under Node's interop its function is the `default` of the default import.
const jsQR = jsQRModule.default;

const BROWSER = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0' };

let h: Harness;
let code: string;
let fullURL: string;
beforeAll(async () => {
  h = await startHarness('sh-qr');
  const { body } = await create(h, { url: uniqueUrl('qr') });
  code = body.data.code;
  fullURL = body.data.fullURL;
});
afterAll(async () => {
  await h.close();
});

/** What a QR code image says, read by jsQR from its RGBA pixels (as sharp decodes them); null when unreadable. */
async function decode(
  image: Buffer,
  density?: number,
): Promise<{ text: string | null; width: number; height: number }> {
  const { data, info } = await sharp(image, density === undefined ? {} : { density })
    .flatten({ background: '#ffffff' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const found = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), info.width, info.height);
  return { text: found?.data ?? null, width: info.width, height: info.height };
}

const qr = (path: string, query = '') => request(`${h.url}/${path}/qr${query}`);

describe('GET /:code/qr', () => {
  it('is an SVG by default that decodes to the fullURL, cacheable for a day, without a key', async () => {
    const res = await qr(code);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
    expect(res.text).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 (\d+) \1"/);
    // Rendered to pixels by sharp (librsvg) at ten times its viewBox, then read back.
    expect((await decode(res.bytes, 720)).text).toBe(fullURL);
  });

  it('is a PNG of exactly `size` pixels, margin included, that decodes to the fullURL', async () => {
    for (const [size, margin] of [
      [512, 2],
      [64, 0],
      [333, 4],
      [2048, 8],
      [100, 1],
    ] as const) {
      const res = await qr(code, `?format=png&size=${size}&margin=${margin}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
      const read = await decode(res.bytes);
      expect([read.width, read.height]).toEqual([size, size]);
      expect(read.text).toBe(fullURL);
    }
    const byDefault = await decode((await qr(code, '?format=png')).bytes);
    expect([byDefault.width, byDefault.text]).toEqual([512, fullURL]);
  });

  it('draws the margin asked for (the quiet zone is white)', async () => {
    const wide = await sharp((await qr(code, '?format=png&size=290&margin=8')).bytes)
      .raw()
      .toBuffer({ resolveWithObject: true });
    const tight = await sharp((await qr(code, '?format=png&size=290&margin=0')).bytes)
      .raw()
      .toBuffer({ resolveWithObject: true });
    const luminanceAt = (image: typeof wide, x: number, y: number): number =>
      image.data[(y * image.info.width + x) * image.info.channels]!;
    // A finder pattern's dark corner sits at the very edge without a margin, inside the white margin with one.
    expect(luminanceAt(tight, 1, 1)).toBe(0);
    expect(luminanceAt(wide, 1, 1)).toBe(255);
  });

  it('works for an expired entry and for a code warm in the redirect cache', async () => {
    const { body } = await create(h, { url: uniqueUrl('qr-expired'), maxVisits: 1 });
    expect((await request(`${h.url}/${body.data.code}`, { headers: BROWSER })).status).toBe(302);
    expect((await request(`${h.url}/${body.data.code}`, { headers: BROWSER })).status).toBe(410);
    expect((await decode((await qr(body.data.code, '?format=png')).bytes)).text).toBe(body.data.fullURL);
    // The redirect answered `code` from memory before; its QR path is still not a redirect.
    expect((await request(`${h.url}/${code}`)).status).toBe(302);
    expect((await qr(code)).status).toBe(200);
  });

  it('answers 404 1075 in JSON for an unknown or malformed code', async () => {
    for (const path of ['no-such-code', 'bad%20code']) {
      const res = await qr(path);
      expect([res.status, res.body.code]).toEqual([404, 1075]);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    }
  });

  const bad = [
    'format=gif',
    'format=',
    'format=svg&format=png',
    'size=63',
    'size=2049',
    'size=',
    'size=12.5',
    'size=+100',
    'size=1e3',
    'margin=9',
    'margin=-1',
    'margin=two',
    'margin=1&margin=2',
  ];
  for (const query of bad) {
    it(`refuses ?${query} with 400 1057`, async () => {
      const res = await qr(code, `?${query}`);
      expect([res.status, res.body.code]).toEqual([400, 1057]);
      expect(res.body.error).toMatch(/format|size|margin/);
    });
  }

  it('draws the longest code at the smallest size with the widest margin (a QR code of the fullURL, never of the target)', async () => {
    const longest = `L${Date.now().toString(36)}`.padEnd(50, 'x');
    const { body } = await create(h, { url: `https://example.com/${'long-path/'.repeat(60)}`, code: longest });
    const res = await qr(body.data.code, '?format=png&size=64&margin=8');
    expect(res.status).toBe(200);
    const { width, height } = await sharp(res.bytes).metadata();
    expect([width, height]).toEqual([64, 64]);
    expect((await decode((await qr(body.data.code, '?format=png&size=400&margin=8')).bytes)).text).toBe(
      body.data.fullURL,
    );
  });
});

describe('the preview page shows the QR code', () => {
  it('inlines the SVG, which decodes to the fullURL, with links to the PNG and SVG', async () => {
    const res = await request(`${h.url}/${code}+`);
    expect(res.status).toBe(200);
    const svg = /<figure class="qr" id="qr">(<svg[\s\S]*?<\/svg>)/.exec(res.text)?.[1];
    expect(svg).toBeDefined();
    expect((await decode(Buffer.from(svg!), 720)).text).toBe(fullURL);
    expect(res.text).toContain(`href="${fullURL}/qr?format=png"`);
    expect(res.text).toContain(`href="${fullURL}/qr"`);
  });
});
