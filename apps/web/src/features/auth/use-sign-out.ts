/** Signs out here (or with `everywhere`, on every device) and leaves for the sign-in page; a failure stays, as a toast. */
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { errorMessage } from '../../lib/error-message';
import { signOut } from './auth-api';

export function useSignOut() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return async (everywhere = false) => {
    try {
      await signOut({ everywhere });
    } catch (err) {
      toast.error(errorMessage(err));
      return;
    }
    queryClient.clear();
    void navigate('/login', { replace: true });
  };
}
