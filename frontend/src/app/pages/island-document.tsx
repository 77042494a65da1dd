import { Island, type IslandDefinition } from '@/lib/islands';

/**
 * What `#root` holds on a prerendered page other than `/`: its islands in page order, each on its
 * own container. The consent banner's container (empty) comes first on every page, as the SPA's
 * providers (app/providers.tsx) place it: whether the site has analytics is known at run time.
 */
export function IslandDocument({ islands }: { islands: readonly IslandDefinition[] }) {
  return (
    <>
      {islands.map((island) => (
        <Island key={island.name} of={island} />
      ))}
    </>
  );
}
