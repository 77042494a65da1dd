import type { AdminLoginRequest, AdminSessionResponse } from '@contracts/admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '@/lib/api-client';
import { adminSessionKey } from '@/lib/admin-session';

function adminLogin(credentials: AdminLoginRequest): Promise<AdminSessionResponse> {
  return apiPost<AdminSessionResponse>('/api/admin/login', credentials);
}

export function useAdminLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: adminLogin,
    onSuccess: (session) => queryClient.setQueryData(adminSessionKey, session),
  });
}
