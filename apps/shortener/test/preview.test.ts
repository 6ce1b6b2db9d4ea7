import escapeHtml from 'escape-html';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, jsonInit, request, SHORTENER_URL, startHarness, uniqueUrl, type Harness } from './support.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness('sh-preview');
});
afterAll(async () => {
  await h.close();
});

describe('GET /:code+', () => {
  it('renders a self-contained, non-indexable HTML page under a strict CSP', async () => {
    const url = uniqueUrl();
    const { body } = await create(h, { url, code: 'peek', credit: 'Otter' });
    const res = await request(`${h.url}/peek+`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('x-robots-tag')).toContain('noindex');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain('unsafe-inline');

    const html = res.text;
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(html).toContain(`href="${url}"`);
    expect(html).toContain(`>${url}</a>`);
    expect(html).toContain(`value="${url}"`);
    expect(html).toContain('id="copy-button"');
    expect(html).toContain('<dd id="credit">Otter</dd>');
    expect(html).toContain(`datetime="${body.data.createdAt}"`);
    expect(html).toContain('<dt>Modified</dt><dd>Never</dd>');
    expect(html).not.toContain('id="destination-notice"');
    expect(html).not.toContain('destination of this link was changed');
    for (const tag of ['og:title', 'og:description', 'og:url', 'og:type']) expect(html).toContain(`property="${tag}"`);
    for (const tag of ['twitter:card', 'twitter:title', 'twitter:description']) expect(html).toContain(`name="${tag}"`);
    expect(html).toContain(`content="${SHORTENER_URL}/peek+"`);
    // No external assets of any kind.
    expect(html).not.toMatch(/<(link|img|iframe)\b|\bsrc=/);
  });

  const notice = (html: string): string =>
    /<p class="notice" id="destination-notice"[^>]*>(.*?)<\/p>/s.exec(html)?.[1] ?? '';

  it('shows a notice with the date when the destination was changed', async () => {
    const { body } = await create(h, { url: uniqueUrl() }, { editable: true });
    const patch = await request(
      `${h.url}/${body.data.code}`,
      jsonInit(
        'PATCH',
        { managementCode: body.data.managementCode, url: uniqueUrl('moved') },
        { authorization: h.key },
      ),
    );
    expect(patch.status).toBe(200);
    const html = (await request(`${h.url}/${body.data.code}+`)).text;
    const changedAt = patch.body.data.modifiedAt as string;
    expect(notice(html)).toContain(
      `The destination of this link was changed on <time datetime="${changedAt}">${new Date(changedAt).toUTCString()}</time>`,
    );
    expect(html).toContain(`<dt>Modified</dt><dd><time datetime="${changedAt}">`);
    expect(html).toContain(patch.body.data.url);
  });

  // modifiedAt also moves on a credit-only edit; the destination notice must not.
  it('shows no destination notice after a credit-only edit, only the modified time', async () => {
    const { body } = await create(h, { url: uniqueUrl() }, { editable: true });
    const patch = await request(
      `${h.url}/${body.data.code}`,
      jsonInit('PATCH', { managementCode: body.data.managementCode, credit: 'Renamed' }, { authorization: h.key }),
    );
    expect(patch.status).toBe(200);
    expect(patch.body.data.modifiedAt).not.toBeNull();
    const html = (await request(`${h.url}/${body.data.code}+`)).text;
    expect(html).not.toContain('id="destination-notice"');
    expect(html).not.toContain('destination of this link was changed');
    expect(html).not.toContain('class="notice"');
    expect(html).toContain('<dd id="credit">Renamed</dd>');
    expect(html).toContain(`<dt>Modified</dt><dd><time datetime="${patch.body.data.modifiedAt}">`);
  });

  it('dates the notice by the last url change, not by a later credit-only edit', async () => {
    const { body } = await create(h, { url: uniqueUrl() }, { editable: true });
    const auth = { authorization: h.key };
    const moved = await request(
      `${h.url}/${body.data.code}`,
      jsonInit('PATCH', { managementCode: body.data.managementCode, url: uniqueUrl('moved') }, auth),
    );
    expect(moved.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const credited = await request(
      `${h.url}/${body.data.code}`,
      jsonInit('PATCH', { managementCode: body.data.managementCode, credit: 'Later' }, auth),
    );
    expect(credited.status).toBe(200);
    expect(credited.body.data.modifiedAt).not.toBe(moved.body.data.modifiedAt);
    const html = (await request(`${h.url}/${body.data.code}+`)).text;
    expect(notice(html)).toContain(`datetime="${moved.body.data.modifiedAt}"`);
    expect(notice(html)).not.toContain(`datetime="${credited.body.data.modifiedAt}"`);
    expect(html).toContain(`<dt>Modified</dt><dd><time datetime="${credited.body.data.modifiedAt}">`);
    // The JSON record keeps its docs/api.md shape (with issue 15's expiresAt, maxVisits and visits): urlChangedAt stays out.
    const json = await request(`${h.url}/${body.data.code}.json`, { headers: auth });
    expect(Object.keys(json.body.data).sort()).toEqual([
      'code',
      'createdAt',
      'credit',
      'expiresAt',
      'fullURL',
      'maxVisits',
      'modifiedAt',
      'pos',
      'protected',
      'rules',
      'tags',
      'url',
      'visits',
    ]);
  });

  it('renders XSS payloads in url and credit inert (escaped, never raw)', async () => {
    const credit = '<script>alert("c")</script>';
    const url = "https://example.com/x'onmouseover='alert(1)'&y=\"<b>\"";
    const created = await create(h, { url, credit });
    expect(created.status).toBe(201);
    const stored = created.body.data.url;
    expect(stored).toContain("'onmouseover='");
    const html = (await request(`${h.url}/${created.body.data.code}+`)).text;
    expect(html).toContain(escapeHtml(credit));
    expect(html).toContain('&lt;script&gt;alert(&quot;c&quot;)&lt;/script&gt;');
    expect(html).not.toContain(credit);
    expect(html).toContain(escapeHtml(stored));
    expect(html).toContain('&#39;onmouseover=&#39;');
    expect(html).not.toContain("'onmouseover='");
    // Exactly one script element: the page's own.
    expect(html.match(/<script/g)).toHaveLength(1);

    const attr = await create(h, { url: uniqueUrl(), credit: '"><img src=x onerror=alert(1)>' });
    const attrHtml = (await request(`${h.url}/${attr.body.data.code}+`)).text;
    expect(attrHtml).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(attrHtml).not.toContain('<img');
  });

  it.each([['missing-code'], ['bad_code'], ['%00'], ['%zz'], ['%C0%AE']])(
    'answers an HTML 404 for %s',
    async (code) => {
      const res = await request(`${h.url}/${code}+`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(res.text).toContain('Unknown short url code.');
    },
  );
});
