/** The open limit dialog: which limit, its details from error_description, and the task it stopped. */
import { create } from 'zustand';
import type { LimitDetails } from '@haul/shared';
import { DIALOG_OF, limitOf, type LimitCode, type LimitDialogType } from './limit-kinds';
import { rememberLimitedTask, type LimitedTask } from './limited-tasks';

export interface LimitDialogState {
  type: LimitDialogType;
  code: LimitCode;
  details: LimitDetails | null;
  taskId?: string;
}

interface LimitStore {
  open: LimitDialogState | null;
  show: (d: LimitDialogState) => void;
  close: () => void;
}

export const useLimitDialog = create<LimitStore>()((set) => ({
  open: null,
  show: (open) => set({ open }),
  close: () => set({ open: null }),
}));

/**
 * When `err` is a limit error: remembers `task` to continue after an upgrade, opens the limit dialog and answers true.
 * Any other failure answers false and changes nothing.
 */
export function reportLimit(err: unknown, task?: LimitedTask): boolean {
  const limit = limitOf(err);
  if (!limit) return false;
  if (task) rememberLimitedTask(task);
  useLimitDialog.getState().show({ type: DIALOG_OF[limit.code], code: limit.code, details: limit.details, taskId: task?.id });
  return true;
}
