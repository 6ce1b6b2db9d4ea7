import type { ConsoleBuildRepository, ConsoleFile } from '../repositories/console-build.repository.js';

/** The console's page and assets (docs/console.md), as `pnpm build` made them. */
export class GetConsoleService {
  constructor(private readonly deps: { build: ConsoleBuildRepository }) {}

  /** The page, or undefined when the console was not built. */
  page(): ConsoleFile | undefined {
    return this.deps.build.read()?.page;
  }

  /** The asset named `name`, or undefined for any other name. */
  asset(name: string): ConsoleFile | undefined {
    return this.deps.build.read()?.assets.get(name);
  }
}
