/** The operator's console, fetched together the first time one of its pages opens (see router). */
export { AdminLayout } from './admin-layout';
export { AdminUsersPage } from './admin-users-page';
export { AdminUserPage } from './admin-user-page';
export { AdminSharesPage } from './admin-shares-page';
export { AdminSystemPage } from './admin-system-page';
export { AdminSettingsPage } from './admin-settings-page';
export { AdminFeedbackPage } from './admin-feedback-page';
export { AdminReportsPage } from './admin-reports-page';
export { AdminMoneyPage } from './admin-money-page';
export { AdminAuditPage } from './admin-audit-page';
