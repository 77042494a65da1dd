import { createContext, startTransition, useContext, type ReactElement, type ReactNode } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';

/**
 * A part of a prerendered page that runs in the browser. Everything else on the page stays the
 * server's HTML and ships no code: each island hydrates on its own container with its own root.
 * Islands take no props, so the server and the browser render the very same element.
 */
export interface IslandDefinition {
  name: string;
  render: () => ReactElement;
}

export function defineIsland(name: string, render: () => ReactElement): IslandDefinition {
  return { name, render };
}

/**
 * Each island's markup, rendered on its own before the page (the page then embeds it verbatim),
 * so a container holds exactly what `hydrateRoot(container, island.render())` produces. Null
 * outside the prerender: inside the SPA an island is an ordinary part of the tree.
 */
export const IslandMarkup = createContext<Readonly<Record<string, string>> | null>(null);

/** The island's container; `display: contents` (landing.css) keeps it out of the layout. */
export function Island({ of: island }: { of: IslandDefinition }) {
  const markup = useContext(IslandMarkup);
  if (!markup) {
    return (
      <div className="island" data-island={island.name}>
        {island.render()}
      </div>
    );
  }
  const html = markup[island.name];
  if (html === undefined) throw new Error(`Island "${island.name}" is on the page but missing from the list the browser hydrates`);
  return <div className="island" data-island={island.name} dangerouslySetInnerHTML={{ __html: html }} />;
}

/**
 * Hydrates every listed island whose container is on the page, one island per task in list order,
 * so no single long task holds the main thread on a slow phone. The returned list fills as they go.
 * `sliced`: each island hydrates as a transition, which React renders in slices, yielding between
 * them (a page whose single island is most of the page).
 */
export function hydrateIslands(
  islands: readonly IslandDefinition[],
  wrap: (element: ReactElement) => ReactNode,
  { sliced = false }: { sliced?: boolean } = {},
): Root[] {
  const roots: Root[] = [];
  const containers = islands
    .map((island) => ({ island, container: document.querySelector<HTMLElement>(`[data-island="${island.name}"]`) }))
    .filter((entry): entry is { island: IslandDefinition; container: HTMLElement } => entry.container !== null);
  const next = (index: number) => {
    const entry = containers[index];
    if (!entry) return;
    const hydrate = () => {
      roots.push(hydrateRoot(entry.container, wrap(entry.island.render())));
    };
    if (sliced) startTransition(hydrate);
    else hydrate();
    setTimeout(() => next(index + 1));
  };
  // Not in the task that evaluated the page's modules (React's among them): that task is long
  // enough on a slow phone without the first island's hydration added to it.
  setTimeout(() => next(0));
  return roots;
}
