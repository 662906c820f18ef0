/** The account's picture: its built-in avatar, else the first letter of its name or address on the accent colour. */
import type { UserInfo } from '@haul/shared';

export function UserAvatar({ user, size }: { user: Pick<UserInfo, 'picture' | 'name' | 'email'>; size: number }) {
  if (user.picture) return <img className="user-avatar" src={user.picture} alt="" width={size} height={size} />;
  const initial = (user.name || user.email || '?')[0]!.toUpperCase();
  return (
    <span className="user-avatar letter" style={{ width: size, height: size, fontSize: size * 0.45 }} aria-hidden="true">
      {initial}
    </span>
  );
}
