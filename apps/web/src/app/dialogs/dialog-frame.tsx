/** The frame every dialog shares: overlay, title, close button; closing clears the dialog store. */
import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { DialogX } from '../../components/dialog-x';
import { escapeLeavesField } from '../../features/files/picker-new-folder';
import { useDialog } from './dialog-store';

export function Frame({ title, children, wide }: { title: string; children: ReactNode; wide?: boolean }) {
  const close = useDialog((s) => s.close);
  return (
    <Dialog.Root open onOpenChange={(o) => !o && close()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className={`dialog${wide ? ' wide' : ''}`} aria-describedby={undefined} onEscapeKeyDown={escapeLeavesField}>
          <Dialog.Title className="dialog-title">{title}</Dialog.Title>
          {children}
          <DialogX />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
