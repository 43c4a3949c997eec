import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { loadArea } from './area-loader.js';
import type { AreaProps } from './area-props.js';
import { AREA_TITLES, type ConsoleConfig, type ConsoleLink } from './console-config.js';
import { navigate, usePath } from './router.js';
import { errorMessage } from './error-alert.js';

/**
 * The layout every service's console shares: a skip link, the banner with the product name and
 * the navigation between the services' consoles, `<main>` holding the home area, a footer.
 */
export function Shell({ config }: { readonly config: ConsoleConfig }) {
  const path = usePath();
  const [Area, setArea] = useState<ComponentType<AreaProps> | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  useEffect(() => {
    loadArea(config.home)
      .then((module) => setArea(() => module.default))
      .catch((error: unknown) => setFailure(errorMessage(error)));
  }, [config.home]);
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="banner">
        <a class="brand" href="/">
          Triad
        </a>
        <nav aria-label="Consoles">
          <ul>
            {consoleLinks(config).map((link) => (
              <li key={link.area}>
                <a href={`${link.url}/`} aria-current={link.area === config.home ? 'true' : undefined}>
                  {link.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        {failure ? (
          <p role="alert" class="error">
            The console could not load: {failure}
          </p>
        ) : Area ? (
          <Area config={config} path={path} navigate={navigate} />
        ) : (
          <p aria-live="polite">Loading…</p>
        )}
      </main>
      <footer class="footer">
        <a href="/docs">API documentation</a>
      </footer>
    </>
  );
}

/** The links to show: the service's list, or the home area alone at this origin. */
function consoleLinks(config: ConsoleConfig): readonly ConsoleLink[] {
  if (config.links.length > 0) return config.links;
  return [{ area: config.home, title: AREA_TITLES[config.home], url: location.origin }];
}
