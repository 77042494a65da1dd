import type { ComponentType } from 'react';
import { Island, type IslandDefinition } from '@/lib/islands';

/** A prerendered page as src/entry-server.tsx renders it (the build's table, vite/pages.plugin.ts). */
export interface IslandPage {
  title: string;
  /** Every island of the page: the prerender renders each, the page's entry hydrates each. */
  islands: readonly IslandDefinition[];
  /** What `#root` holds, the islands placed in it. */
  Document: ComponentType;
}

/**
 * What `#root` holds on a prerendered page other than `/`: its islands in page order, each on its
 * own container, after the page's JSON data block if it has one (the granted /blackcard's invitee,
 * @contracts/blackcard-grant). The consent banner's container (empty) comes first on every page,
 * as the SPA's providers (app/providers.tsx) place it: whether the site has analytics is known at
 * run time.
 */
export function IslandDocument({
  islands,
  dataBlock,
}: {
  islands: readonly IslandDefinition[];
  dataBlock: { id: string; json: string } | null;
}) {
  return (
    <>
      {dataBlock && <script type="application/json" id={dataBlock.id} dangerouslySetInnerHTML={{ __html: dataBlock.json }} />}
      {islands.map((island) => (
        <Island key={island.name} of={island} />
      ))}
    </>
  );
}
