import { useMutation, useQueryClient } from '@tanstack/react-query';
import { downloadFile, type Params } from './dashboard-request';
import { auditKey } from './get-audit';

/** CSV and JSON exports: downloads that the server records in the audit log. */
export function useDownload() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ path, params }: { path: string; params: Params }) => downloadFile(path, params),
    onSettled: () => queryClient.invalidateQueries({ queryKey: auditKey }),
  });
}
