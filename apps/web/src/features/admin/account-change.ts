/** Changes to one account from its page: each answer is shown at once, then the console's lists refresh. */
import { useQueryClient } from '@tanstack/react-query';
import { ADMIN_KEY, signOutUser, updateUser, userKey, type AdminChange, type AdminUserDetail } from './admin-api';

/** `change` and `signOut` for the account `id`; both throw the server's error for the caller to put in words. */
export function useAccountChange(id: string) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
  return {
    change: async (c: AdminChange) => {
      const user = await updateUser(id, c);
      queryClient.setQueryData<AdminUserDetail>(userKey(id), (old) => old && { ...old, user });
      void refresh();
      return user;
    },
    signOut: async () => {
      await signOutUser(id);
      void refresh();
    },
  };
}
