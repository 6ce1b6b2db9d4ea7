import { describe, expect, it } from 'vitest';
import { parseWrkOutput } from './wrk.js';

const OUTPUT = `Running 5s test @ http://127.0.0.1:40123
  1 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.23ms  456.00us  12.34ms   90.00%
    Req/Sec    40.12k     2.00k   45.00k    80.00%
  Latency Distribution
     50%  843.00us
     75%    1.30ms
     90%    1.60ms
     99%    3.20ms
  200123 requests in 5.00s, 20.00MB read
  Socket errors: connect 1, read 2, write 3, timeout 4
  Non-2xx or 3xx responses: 5
Requests/sec:  40012.34
Transfer/sec:      4.00MB
`;

describe('parseWrkOutput', () => {
  it('reads throughput, the p50/p99 latencies in ms, the request count and the failures', () => {
    expect(parseWrkOutput(OUTPUT)).toEqual({
      requestsPerSecond: 40012.34,
      requests: 200123,
      p50Ms: 0.843,
      p99Ms: 3.2,
      badResponses: 5,
      socketErrors: 10,
    });
  });

  it('counts no failures when wrk prints none, and reads latencies in seconds', () => {
    const clean = OUTPUT.replace(/^\s*(Socket errors|Non-2xx).*\n/gm, '').replace('99%    3.20ms', '99%    1.50s');
    expect(parseWrkOutput(clean)).toMatchObject({ p99Ms: 1500, badResponses: 0, socketErrors: 0 });
  });

  it('refuses output without the latency distribution (run without --latency)', () => {
    expect(() => parseWrkOutput(OUTPUT.replace(/ {5}(50|75|90|99)%.*\n/g, ''))).toThrow(/50% latency/);
  });

  it('refuses output without a Requests/sec line', () => {
    expect(() => parseWrkOutput('unable to connect to 127.0.0.1:1 Connection refused')).toThrow(/Requests\/sec/);
  });
});
