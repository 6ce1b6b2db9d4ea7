import { describe, expect, it } from 'vitest';
import { setup } from '../../test/short-url-service-fakes.js';

describe('PreviewShortUrlService', () => {
  it('reads previews through the preview cache', async () => {
    const { create, preview, cache } = setup();
    const created = await create.create({ url: 'https://example.com/p', credit: 'Otter', editable: true });
    cache.calls.length = 0;
    const shown = await preview.preview(created.record.code);
    expect(shown.kind === 'preview' && shown.preview.record).toMatchObject({
      url: 'https://example.com/p',
      credit: 'Otter',
    });
    expect(await preview.preview('missing')).toEqual({ kind: 'unknown' });
    expect(cache.calls).toEqual([`preview ${created.record.code}`, 'preview missing']);
  });

  it('needs a lookup only for a well-formed code that is not held in memory', () => {
    const { preview, previews } = setup();
    previews.held.add('shown');
    expect(preview.needsLookup('cold')).toBe(true);
    expect(preview.needsLookup('shown')).toBe(false);
    expect(preview.needsLookup('bad code')).toBe(false);
  });
});
