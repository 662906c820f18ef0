/** The feedback page's address about `pathname` (the page a person was on); the feedback pages name no page. */
export function feedbackAddress(pathname: string): string {
  const about = /^\/feedback(-v2)?\/?$/.test(pathname) ? '' : pathname;
  return about ? `/feedback?${new URLSearchParams({ where: about })}` : '/feedback';
}
