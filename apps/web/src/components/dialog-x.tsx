/** A dialog's close button in its corner: an icon, so it is named "Close", and the title shows that name on hover. */
import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export function DialogX({ children = '×' }: { children?: ReactNode }) {
  const { t } = useTranslation();
  const label = t('common.close');
  return (
    <Dialog.Close className="icon-btn dialog-x" aria-label={label} title={label}>
      {children}
    </Dialog.Close>
  );
}
