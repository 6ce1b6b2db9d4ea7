/** A link as a source holds it, before any of our checks. */
export interface ImportedLink {
  /** Where it is in the source, for the report: `row 12`, `code abc`. */
  at: string;
  /** Its identity at the source (its code, or what names a codeless row), unique within the source. */
  origin: string;
  /** The code it had; null when the source has none (a random code is given). */
  code: string | null;
  url: string;
  /** Null: the default credit. */
  credit: string | null;
  /** Null: the moment of the import. */
  createdAt: Date | null;
  tags: string[];
  expiresAt: Date | null;
  maxVisits: number | null;
  /** Visits counted at the source. */
  visits: number;
}

/** What a source yields: a link, or a record it could not read (refused with the reason). */
export type SourceItem =
  { ok: true; link: ImportedLink } | { ok: false; at: string; code: string | null; reason: string };

/** A source being read: its items, and how far it has got (for the progress bar). */
export interface LinkSource {
  items: AsyncIterable<SourceItem>;
  /** Done so far and the whole, in the source's own unit (bytes of a file, links of an API); total null when unknown. */
  progress(): { done: number; total: number | null };
}

/** Each link source by its `--from` name. */
export const SOURCE_NAMES = ['csv', 'bitly-csv', 'yourls', 'shlink', 'kutt'] as const;
export type SourceName = (typeof SOURCE_NAMES)[number];

/** A value a source could not read; the record is refused with this message. */
export class UnreadableValue extends Error {}
