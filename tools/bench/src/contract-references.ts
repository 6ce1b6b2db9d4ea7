import { startCeiling } from './processes.js';
import type { EndpointReference } from './run-bench.js';

/**
 * The two reference servers of an endpoint that do all the I/O its contract requires (`io` says
 * what, for the row's label): a ceiling script started with the contract's settings in `config`,
 * once on bare node:http and once on a bare Express app with our settings. The Express one bounds
 * what any implementation on our stack could reach. Each is stopped through `defer`.
 */
export async function startContractReferences(
  name: string,
  entry: string,
  config: object,
  io: string,
  defer: (cleanup: () => Promise<unknown>) => void,
): Promise<EndpointReference[]> {
  const plain = await startCeiling(`${name} contract-I/O ceiling`, entry, config);
  defer(plain.stop);
  const express = await startCeiling(`${name} Express contract-I/O ceiling`, entry, config, { framework: 'express' });
  defer(express.stop);
  return [
    { name: 'contract I/O', url: plain.url, label: `node:http + the contract's I/O: ${io}` },
    {
      name: 'Express + contract I/O',
      url: express.url,
      label: `bare Express 5 with our settings + the contract's I/O, as above: what any implementation on our stack could reach`,
    },
  ];
}
