import { HttpClient, formatMegabytes, type CallOptions, type HttpClientOptions, type HttpResponse } from './http';
import { NetworkError, ServiceError } from './errors';
import type { ServiceSettings } from './settings';

/** api-version of the metadata operations (spec "Versioning"). */
export const METADATA_API_VERSION = '2025-01-01';
/** Pages followed at most by one listing, whatever the service says: a runaway nextLink chain ends here. */
export const DEFAULT_MAX_PAGES = 100;
/** Bounds of one listing across its pages: the real metadata is some tens of KB. */
export const DEFAULT_MAX_METADATA_BYTES = 16 * 1024 * 1024;
export const DEFAULT_MAX_METADATA_ENTRIES = 200_000;

/** B: a supported value of a metadata entity. */
export interface MetadataSupportedValue {
  id?: string;
  displayName?: string;
}

/** B: MetadataEntity. */
export interface MetadataEntity {
  id?: string;
  name?: string;
  type?: string;
  properties?: {
    displayName?: string;
    dependsOn?: string[] | null;
    applicableScenarios?: string[] | null;
    supportedValues?: MetadataSupportedValue[];
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/** One page of E3: its entities and where it came from. */
export interface MetadataPage {
  value: MetadataEntity[];
  /** 1 for the first page. */
  page: number;
  requestId?: string;
}

export interface ListMetadataOptions extends CallOptions {
  /** `$filter`, passed through as given (the spec shows no syntax). */
  filter?: string;
  maxPages?: number;
  /** Bytes and entries read at most across all pages (defaults above); more ends the listing with a ServiceError. */
  maxBytes?: number;
  maxEntries?: number;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** E3: the advisor's recommendation metadata, page by page. */
export class AdvisorMetadataClient {
  readonly http: HttpClient;
  constructor(
    readonly settings: ServiceSettings,
    options: Omit<HttpClientOptions, 'baseUrl'>,
  ) {
    this.http = new HttpClient({ ...options, baseUrl: settings.baseUrl });
  }

  /** The path E3 reads, without the base URL. */
  get metadataPath(): string {
    return `/providers/${this.settings.providerNamespace}.Advisor/metadata`;
  }

  /**
   * The pages of E3, following nextLink until there is none. A caller may stop early (break): no more
   * pages are asked for. A nextLink to another host (or scheme, or port) than the configured address, one
   * already followed (a loop), or more than `maxPages` pages end the listing with a ServiceError, before
   * anything is sent there: a token goes only to the configured host.
   */
  async *pages(options: ListMetadataOptions = {}): AsyncGenerator<MetadataPage, void, undefined> {
    const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
    const origin = new URL(this.settings.baseUrl).origin;
    // Pages are known by address, query order aside; the first one too (a nextLink back to it is a loop).
    const keyOf = (url: URL) =>
      `${url.origin}${url.pathname.replace(/\/+$/, '').toLowerCase()}?${[...url.searchParams]
        .map(([k, v]) => `${k}=${v}`)
        .sort()
        .join('&')}`;
    const first = new URL(this.settings.baseUrl + this.metadataPath);
    first.searchParams.set('api-version', METADATA_API_VERSION);
    if (options.filter !== undefined) first.searchParams.set('$filter', options.filter);
    const seen = new Set<string>([keyOf(first)]);
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_METADATA_BYTES;
    const maxEntries = options.maxEntries ?? DEFAULT_MAX_METADATA_ENTRIES;
    let bytes = 0;
    let entries = 0;
    const tooMuch = (status: number, requestId?: string) =>
      new ServiceError(
        `The service sent more than ${formatMegabytes(maxBytes)} or ${maxEntries.toLocaleString('en-US')} entries of metadata; not read further: narrow it with a filter (--filter)`,
        status,
        'TooLarge',
        '',
        'unexpected',
        undefined,
        [],
        requestId,
      );
    let next: string | undefined;
    for (let page = 1; ; page++) {
      const what = page === 1 ? `GET ${this.metadataPath}` : `the nextLink of page ${page - 1}`;
      let response: HttpResponse<unknown>;
      try {
        // Each page may use what is left of the budget: a huge page is cut off while it arrives.
        response = await this.http.send<unknown>(
          next
            ? { method: 'GET', path: '', url: next, apiVersion: METADATA_API_VERSION, area: 'metadata' }
            : {
                method: 'GET',
                path: this.metadataPath,
                apiVersion: METADATA_API_VERSION,
                query: { $filter: options.filter },
                area: 'metadata',
              },
          { ...options, maxResponseBytes: Math.max(1, maxBytes - bytes) },
        );
      } catch (error) {
        if (error instanceof NetworkError && error.code === 'ETOOLARGE') throw tooMuch(200);
        throw error;
      }
      const body = response.body;
      if (!isObject(body) || !Array.isArray(body.value)) {
        throw new ServiceError(
          `The service answered ${response.status} to ${what} with JSON that is not a metadata list (no "value" array)`,
          response.status,
          'InvalidResponse',
          '',
          'unexpected',
          undefined,
          [],
          response.requestId,
        );
      }
      bytes += response.bytes ?? 0;
      entries += body.value.length;
      if (entries > maxEntries) throw tooMuch(response.status, response.requestId);
      yield { value: body.value.filter(isObject) as MetadataEntity[], page, requestId: response.requestId };
      if (body.nextLink !== undefined && body.nextLink !== null && typeof body.nextLink !== 'string') {
        throw new ServiceError(
          `The nextLink of page ${page} is not a string (${Array.isArray(body.nextLink) ? 'an array' : typeof body.nextLink}); the listing may be incomplete, so it stops here`,
          response.status,
          'InvalidNextLink',
          '',
          'unexpected',
          undefined,
          [],
          response.requestId,
        );
      }
      const link = typeof body.nextLink === 'string' && body.nextLink.trim() ? body.nextLink.trim() : undefined;
      if (!link) return;
      const problem = (text: string) =>
        new ServiceError(
          `Not following the nextLink of page ${page}: ${text}`,
          response.status,
          'InvalidNextLink',
          '',
          'unexpected',
          undefined,
          [],
          response.requestId,
        );
      let url: URL;
      try {
        url = new URL(link, this.settings.baseUrl + '/');
      } catch {
        throw problem('it is not a URL');
      }
      // Only the origin is named, never the link's query (it could carry anything).
      if (url.origin !== origin) throw problem(`it leads to ${url.origin}, not to the service at ${origin}`);
      if (!url.searchParams.has('api-version')) url.searchParams.set('api-version', METADATA_API_VERSION);
      const key = keyOf(url);
      if (seen.has(key)) throw problem('it repeats a page already read (a loop)');
      if (page >= maxPages) throw problem(`more than ${maxPages} pages; the listing stops here`);
      seen.add(key);
      next = url.toString();
    }
  }

  /** Every entity of every page (E3), in order. */
  async listAll(options: ListMetadataOptions = {}): Promise<{ entities: MetadataEntity[]; pages: number }> {
    const entities: MetadataEntity[] = [];
    let pages = 0;
    for await (const page of this.pages(options)) {
      // One at a time: a spread of a large page overflows the call stack.
      for (const entity of page.value) entities.push(entity);
      pages = page.page;
    }
    return { entities, pages };
  }
}
