/**
 * What can be done with the selection, as buttons (the same actions as the context menu). The actions that do not fit
 * the bar's width sit in a "more" menu, so none is cut off the screen: on a phone the actions with an icon come first
 * as icon buttons; wider, the labelled buttons that fit, measured.
 */
import './selection-bar.css';
import * as Menu from '@radix-ui/react-dropdown-menu';
import { useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { DriveFile } from '@haul/shared';
import { IconMenu } from '../../components/icon-menu';
import { Icon } from '../../components/icon';
import { useIsMobile } from '../layout/use-media';
import { actionLabel, barActions, type ActionContext, type FileAction, type View } from './actions';
import { fitCount } from './fit-count';
import { useSelection } from './selection-store';

/** Icon buttons shown on a phone before the rest go into "more". */
const PHONE_BUTTONS = 3;
/** The gap between the bar's buttons (.selection-actions). */
const GAP = 6;

export interface SelectionBarProps {
  files: DriveFile[];
  view: View;
  /** In the toolbar's flow beside its end (from a tablet's width up) rather than over the whole toolbar. */
  inline?: boolean;
}

export function SelectionBar({ files, view, inline }: SelectionBarProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const clear = useSelection((s) => s.clear);
  const mobile = useIsMobile();
  if (files.length === 0) return null;
  const ctx = { files, view, navigate };
  const actions = barActions(ctx);
  return (
    <div className={`selection-bar${inline ? ' inline' : ''}`} role="toolbar" aria-label={t('selection.label')}>
      <button className="icon-btn" onClick={clear} aria-label={t('selection.clear')} title={t('selection.clear')}>
        <Icon name="close" />
      </button>
      <span className="selection-count">{t('selection.count', { count: files.length })}</span>
      {mobile ? <PhoneActions actions={actions} ctx={ctx} /> : <FittedActions actions={actions} ctx={ctx} />}
    </div>
  );
}

interface ActionsProps {
  actions: FileAction[];
  ctx: ActionContext;
}

function MoreMenu({ actions, ctx }: ActionsProps) {
  const { t } = useTranslation();
  if (actions.length === 0) return null;
  return (
    <IconMenu label={t('selection.more')} button={<Icon name="more" />}>
      {actions.map((a) => (
        <Menu.Item key={a.id} className={`menu-item${a.danger ? ' danger' : ''}`} onSelect={() => void a.perform(ctx)}>
          {t(actionLabel(a, ctx))}
        </Menu.Item>
      ))}
    </IconMenu>
  );
}

function PhoneActions({ actions, ctx }: ActionsProps) {
  const { t } = useTranslation();
  const shown = actions.filter((a) => a.icon).slice(0, PHONE_BUTTONS);
  return (
    <div className="selection-actions">
      {shown.map((a) => (
        <button
          key={a.id}
          className={`icon-btn${a.danger ? ' danger' : ''}`}
          onClick={() => void a.perform(ctx)}
          aria-label={t(a.labelKey)}
          title={t(a.labelKey)}
        >
          <Icon name={a.icon!} />
        </button>
      ))}
      <MoreMenu actions={actions.filter((a) => !shown.includes(a))} ctx={ctx} />
    </div>
  );
}

/**
 * Labelled buttons, as many as the room left beside the count allows (their widths vary with the language). A hidden
 * copy of every button and of "more" is measured; the room is watched as the window, the language or the fonts change.
 */
function FittedActions({ actions, ctx }: ActionsProps) {
  const { t } = useTranslation();
  const roomRef = useRef<HTMLDivElement>(null);
  const measureRef = useRef<HTMLDivElement>(null);
  const [fit, setFit] = useState(actions.length);
  const labels = actions.map((a) => t(actionLabel(a, ctx)));
  const key = labels.join('\n');

  useLayoutEffect(() => {
    const room = roomRef.current;
    const measure = measureRef.current;
    if (!room || !measure) return;
    const parts = [...measure.children] as HTMLElement[];
    const update = () => {
      // Rounded up, so a fraction of a pixel never pushes the last button past the edge.
      const widths = parts.map((el) => Math.ceil(el.getBoundingClientRect().width));
      const more = widths.pop() ?? 0;
      setFit(fitCount(widths, Math.floor(room.clientWidth), GAP, more));
    };
    update();
    const ro = new ResizeObserver(update);
    ro.observe(room);
    parts.forEach((el) => ro.observe(el));
    return () => ro.disconnect();
  }, [key]);

  return (
    <div className="selection-actions fitted" ref={roomRef}>
      <div className="selection-measure" ref={measureRef} aria-hidden="true">
        {actions.map((a, i) => (
          <span key={a.id} className="btn small">
            {labels[i]}
          </span>
        ))}
        <span className="icon-btn">
          <Icon name="more" />
        </span>
      </div>
      {actions.slice(0, fit).map((a, i) => (
        <button key={a.id} className={`btn small${a.danger ? ' danger' : ''}`} onClick={() => void a.perform(ctx)}>
          {labels[i]}
        </button>
      ))}
      <MoreMenu actions={actions.slice(fit)} ctx={ctx} />
    </div>
  );
}
