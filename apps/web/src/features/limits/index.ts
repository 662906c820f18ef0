/** What other features use of the limits: continuing limited tasks (the payment pages call it) and reporting limits. */
export { continueLimitedTasks } from './continue-limited-tasks';
export { rememberLimitedTask, forgetLimitedTasks } from './limited-tasks';
export { reportLimit, useLimitDialog } from './limit-store';
export { upgradePath, type LimitDialogType } from './limit-kinds';
