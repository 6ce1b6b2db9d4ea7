import { imagesOpenApi } from '../src/openapi.js';
import { describeDocsPage } from '@pawlink/test-kit/suites/docs-page';
import { expect } from 'vitest';
import { startHarness } from './support.js';

describeDocsPage({
  start: async () => {
    const h = await startHarness('img-docs-browser');
    await h.addCategory('furry.hug', 'Furry > Hug');
    await h.addImage('furry.hug', 1);
    return h;
  },
  document: imagesOpenApi,
  title: 'Pawlink images',
  publicUrl: (h) => h.config.urls.images,
  expectView: (view) => {
    expect(view.header).toContain('Furry > Hug furry.hug 1 enabled');
  },
});
