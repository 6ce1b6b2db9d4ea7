import { describe, expect, it } from 'vitest';
import { HttpMetrics } from './metrics.js';

describe('HttpMetrics', () => {
  it('reports the readiness it tracks as pawlink_dependency_up at each scrape, 1 up and 0 down', async () => {
    const metrics = new HttpMetrics('thumbs');
    expect(await metrics.render()).not.toMatch(/^pawlink_dependency_up\{/m);
    let redis: 'up' | 'down' = 'up';
    metrics.trackReadiness(() => Promise.resolve({ redis, database: 'up' }));
    expect(await metrics.render()).toContain('pawlink_dependency_up{dependency="redis",service="thumbs"} 1');
    redis = 'down';
    const text = await metrics.render();
    expect(text).toContain('pawlink_dependency_up{dependency="redis",service="thumbs"} 0');
    expect(text).toContain('pawlink_dependency_up{dependency="database",service="thumbs"} 1');
  });

  it('counts rate-limit refusals by bucket', async () => {
    const metrics = new HttpMetrics('images');
    metrics.refused('images.random');
    metrics.refused('images.random');
    metrics.refused('global');
    const text = await metrics.render();
    expect(text).toContain('pawlink_rate_limit_refusals_total{bucket="images.random",service="images"} 2');
    expect(text).toContain('pawlink_rate_limit_refusals_total{bucket="global",service="images"} 1');
  });
});
