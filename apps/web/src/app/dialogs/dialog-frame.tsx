/**
 * The frame every dialog shares: overlay, title (and a line under it when given), close button. Closing clears the
 * dialog store, or calls `onClose` for a dialog that keeps its own open state (a host of its own).
 */
import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { DialogX } from '../../components/dialog-x';
import { escapeLeavesField } from '../../features/files/picker-new-folder';
import { useDialog } from './dialog-store';

interface FrameProps {
  title: string;
  children: ReactNode;
  wide?: boolean;
  /** Classes of its own, beside `dialog`. */
  className?: string;
  /** Said under the title, and what the dialog is described by. */
  description?: string;
  onClose?: () => void;
}

export function Frame({ title, children, wide, className, description, onClose }: FrameProps) {
  const closeStore = useDialog((s) => s.close);
  const close = onClose ?? closeStore;
  const classes = ['dialog', wide ? 'wide' : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <Dialog.Root open onOpenChange={(o) => !o && close()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className={classes} {...(description ? {} : { 'aria-describedby': undefined })} onEscapeKeyDown={escapeLeavesField}>
          <Dialog.Title className="dialog-title">{title}</Dialog.Title>
          {description && <Dialog.Description className="muted">{description}</Dialog.Description>}
          {children}
          <DialogX />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
