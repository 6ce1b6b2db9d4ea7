import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  create,
  invalidated,
  jsonInit,
  request,
  startHarness,
  uniqueUrl,
  type Harness,
  type Instance,
} from './support.js';

// Previews are held in each instance's memory and dropped on every instance when the entry changes.
let h: Harness;
let second: Instance;
beforeAll(async () => {
  h = await startHarness('sh-preview-cache');
  second = await h.startInstance();
});
afterAll(async () => {
  await h.close();
});

const creditOf = (html: string): string | undefined => /<dd id="credit">(.*?)<\/dd>/.exec(html)?.[1];

async function previewAt(
  base: string,
  code: string,
): Promise<{ status: number; credit: string | undefined; html: string }> {
  const res = await request(`${base}/${code}+`);
  return { status: res.status, credit: creditOf(res.text), html: res.text };
}

/** Changes the row behind the service's back: only an answer that asked MySQL can show it. */
async function rewriteCreditInMysql(code: string, credit: string): Promise<void> {
  await h.dataSource.query('UPDATE short_urls SET credit = ? WHERE code = ?', [credit, code]);
}

async function editable(credit: string): Promise<{ code: string; managementCode: string }> {
  const { body } = await create(h, { url: uniqueUrl(), credit }, { editable: true });
  return { code: body.data.code, managementCode: body.data.managementCode! };
}

describe('preview cache', () => {
  it('asks MySQL once for a preview shown twice, on each instance', async () => {
    const { code } = await editable('Otter');
    for (const base of [h.url, second.url]) expect((await previewAt(base, code)).credit).toBe('Otter');
    await rewriteCreditInMysql(code, 'Behind the back');
    for (const base of [h.url, second.url]) {
      const again = await previewAt(base, code);
      expect(again.status).toBe(200);
      expect(again.credit).toBe('Otter');
    }
  });

  it('shows an edit at once on the editing instance and on every other one', async () => {
    const { code, managementCode } = await editable('Otter');
    for (const base of [h.url, second.url]) expect((await previewAt(base, code)).credit).toBe('Otter');

    // A credit-only edit leaves the redirect alone but must still reach every preview.
    let announced = invalidated(second.cache, code);
    const credited = await request(
      `${h.url}/${code}`,
      jsonInit('PATCH', { managementCode, credit: 'Badger' }, { authorization: h.key }),
    );
    expect(credited.status).toBe(200);
    expect((await previewAt(h.url, code)).credit).toBe('Badger');
    await announced;
    expect((await previewAt(second.url, code)).credit).toBe('Badger');

    announced = invalidated(h.cache, code);
    const next = uniqueUrl('moved');
    const moved = await request(
      `${second.url}/${code}`,
      jsonInit('PATCH', { managementCode, url: next }, { authorization: h.key }),
    );
    expect(moved.status).toBe(200);
    const onEditor = await previewAt(second.url, code);
    expect(onEditor.html).toContain(`href="${next}"`);
    expect(onEditor.html).toContain('id="destination-notice"');
    await announced;
    expect((await previewAt(h.url, code)).html).toContain(`href="${next}"`);
  });

  it('answers 404 on every instance once the entry is deleted', async () => {
    const { code, managementCode } = await editable('Otter');
    for (const base of [h.url, second.url]) expect((await previewAt(base, code)).status).toBe(200);
    const announced = invalidated(h.cache, code);
    const del = await request(
      `${second.url}/${code}`,
      jsonInit('DELETE', { managementCode }, { authorization: h.key }),
    );
    expect(del.status).toBe(204);
    expect((await previewAt(second.url, code)).status).toBe(404);
    await announced;
    expect((await previewAt(h.url, code)).status).toBe(404);
  });

  it('does not remember unknown codes: one created on another instance is shown at once', async () => {
    const code = `later${Date.now().toString(36)}`;
    expect((await previewAt(h.url, code)).status).toBe(404);
    const created = await create({ url: second.url, key: h.key }, { url: uniqueUrl(), code, credit: 'Newcomer' });
    expect(created.status).toBe(201);
    expect((await previewAt(h.url, code)).credit).toBe('Newcomer');
  });
});
