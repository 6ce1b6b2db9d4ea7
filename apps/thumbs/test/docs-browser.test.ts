import { thumbsOpenApi } from '../src/openapi.js';
import { describeDocsPage } from '@pawlink/test-kit/suites/docs-page';
import { expect } from 'vitest';
import { startThumbs } from './helpers.js';

describeDocsPage({
  start: () => startThumbs(),
  document: thumbsOpenApi,
  title: 'Pawlink thumbnails',
  publicUrl: (h) => h.config.urls.thumbs,
  expectView: (view) => {
    expect(view.header).toContain('WebP');
    expect(view.header).toContain('MP4');
    // Path parameters named for what they are; bull-board's own routes are not public API.
    expect(view.paths).toContain('/check/{md5}/{type}');
    expect(view.paths.filter((path) => path.startsWith('/admin/queues'))).toEqual([]);
  },
});
