/** The console's areas, one per service. */
export type ConsoleArea = 'operator' | 'catalog' | 'templates';

/** Where a service's console lives. */
export interface ConsoleLink {
  readonly area: ConsoleArea;
  readonly title: string;
  /** Absolute base URL of the service, no trailing slash. */
  readonly url: string;
}

/** What the serving service tells the page (service-kit `serveConsole`). */
export interface ConsoleConfig {
  /** The area of the service that served the page: the only one that runs here. */
  readonly home: ConsoleArea;
  /** Every service's console, for the navigation (may be empty: then only the home area is listed). */
  readonly links: readonly ConsoleLink[];
  /** What the home area needs before its first call (operator: `authentication`). */
  readonly settings: Readonly<Record<string, unknown>>;
}

const AREAS: readonly ConsoleArea[] = ['operator', 'catalog', 'templates'];

/** Default titles, used when the service gives no links (Vite's dev server, a service started alone). */
export const AREA_TITLES: Readonly<Record<ConsoleArea, string>> = {
  operator: 'Nodes and alarms',
  catalog: 'Catalog',
  templates: 'Templates',
};

/**
 * Reads `<meta name="triad-console" content="{json}">`. Without it (Vite's dev server) the home
 * area comes from `?area=`, default operator.
 */
export function readConsoleConfig(doc: Document): ConsoleConfig {
  const content = doc.querySelector('meta[name="triad-console"]')?.getAttribute('content');
  if (content) {
    const parsed = JSON.parse(content) as Partial<ConsoleConfig>;
    if (isArea(parsed.home)) {
      const links = Array.isArray(parsed.links) ? parsed.links : [];
      return { home: parsed.home, links, settings: parsed.settings ?? {} };
    }
  }
  const requested = new URLSearchParams(doc.location.search).get('area');
  return { home: isArea(requested) ? requested : 'operator', links: [], settings: {} };
}

function isArea(value: unknown): value is ConsoleArea {
  return typeof value === 'string' && (AREAS as readonly string[]).includes(value);
}
