import { jsonInit, request } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, startHarness, type Harness } from './support.js';

describe("SHORTENER_PRIVATE_TARGET_PREFIXES: the operator's own local media may be a target", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness('sh-private-prefix', {
      SHORTENER_PRIVATE_TARGET_PREFIXES: 'http://127.0.0.1:3004/images, http://localhost:8080/media/',
    });
  });
  afterAll(async () => h?.close());

  it('accepts URLs under a listed prefix, shares them when not editable, and redirects there', async () => {
    for (const url of ['http://127.0.0.1:3004/images/0123.png', 'http://localhost:8080/media/a/b.gif']) {
      const res = await create(h, { url }, { editable: false });
      expect(res.status, url).toBe(201);
      expect(res.body.data.url).toBe(url);
      const again = await create(h, { url }, { editable: false });
      expect(again.status).toBe(200);
      expect(again.body.data.code).toBe(res.body.data.code);
      const redirect = await fetch(`${h.url}/${res.body.data.code}`, { redirect: 'manual' });
      expect(redirect.status).toBe(302);
      expect(redirect.headers.get('location')).toBe(url);
    }
  });

  it.each([
    'http://127.0.0.1:3004/images-x/a.png',
    'http://127.0.0.1:3004/thumbs/a.png',
    'http://127.0.0.1:3004/images/../thumbs/a.png',
    'http://127.0.0.1:3004/images/%2e%2e/thumbs/a.png',
    'http://127.0.0.1:3005/images/a.png',
    'https://127.0.0.1:3004/images/a.png',
    'http://user:pw@127.0.0.1:3004/images/a.png',
    'http://localhost:8080/mediax',
    'http://10.0.0.1/',
  ])('still refuses %s (422 1073)', async (url) => {
    const res = await create(h, { url });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ success: false, code: 1073 });
  });

  it('applies to PATCH as to create', async () => {
    const made = await create(h, { url: 'https://example.com/first' });
    const res = await request(
      `${h.url}/${made.body.data.code}`,
      jsonInit(
        'PATCH',
        { managementCode: made.body.data.managementCode, url: 'http://127.0.0.1:3004/images/later.png' },
        { authorization: h.key },
      ),
    );
    expect(res.status).toBe(200);
    expect(res.body.data.url).toBe('http://127.0.0.1:3004/images/later.png');
    const refused = await request(
      `${h.url}/${made.body.data.code}`,
      jsonInit(
        'PATCH',
        { managementCode: made.body.data.managementCode, url: 'http://127.0.0.1:3004/other.png' },
        { authorization: h.key },
      ),
    );
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe(1073);
  });
});

describe('without SHORTENER_PRIVATE_TARGET_PREFIXES', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness('sh-no-private-prefix');
  });
  afterAll(async () => h?.close());

  it('refuses the same local media URL (422 1073)', async () => {
    const res = await create(h, { url: 'http://127.0.0.1:3004/images/0123.png' });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe(1073);
  });
});
