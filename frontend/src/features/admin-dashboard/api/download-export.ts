import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch, withParams, type QueryParams } from '@/lib/api-client';
import { auditKey } from './get-audit';

/**
 * Fetches an export and saves it under the server's file name. Through fetch rather than a link,
 * so a searched e-mail address stays out of the browser's history.
 */
export async function downloadFile(path: string, params: QueryParams): Promise<void> {
  const response = await apiFetch(withParams(path, params));
  const fileName = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'export';
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** CSV and JSON exports: downloads that the server records in the audit log. */
export function useDownload() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ path, params }: { path: string; params: QueryParams }) => downloadFile(path, params),
    onSettled: () => queryClient.invalidateQueries({ queryKey: auditKey }),
  });
}
