/**
 * A menu button (WAI-ARIA menu pattern): Enter, Space or ArrowDown opens it on the first item,
 * arrows, Home and End move, Escape closes and gives focus back, Tab or a click elsewhere closes.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import './Menu.css';

export interface MenuItem {
  label: ReactNode;
  onSelect(): void;
  hint?: string;
  disabled?: boolean;
  testId?: string;
}

function enabledItems(menu: HTMLElement | null): HTMLButtonElement[] {
  return Array.from(menu?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]:not(:disabled)') ?? []);
}

function focusNth(menu: HTMLElement | null, index: number): void {
  const els = enabledItems(menu);
  if (els.length) els[(index + els.length) % els.length]!.focus();
}

export function MenuButton({
  label,
  items,
  disabled,
  testId,
  title,
}: {
  label: ReactNode;
  items: MenuItem[];
  disabled?: boolean;
  testId?: string;
  title?: string;
}) {
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();

  const itemEls = () => enabledItems(menuRef.current);
  const focusItem = (index: number) => focusNth(menuRef.current, index);
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    requestAnimationFrame(() => focusNth(menuRef.current, 0));
    const onDown = (e: MouseEvent) => {
      const t = e.target as Node;
      if (!menuRef.current?.contains(t) && !buttonRef.current?.contains(t)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const onMenuKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const els = itemEls();
    const at = els.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === 'ArrowDown') focusItem(at + 1);
    else if (e.key === 'ArrowUp') focusItem(at - 1);
    else if (e.key === 'Home') focusItem(0);
    else if (e.key === 'End') focusItem(els.length - 1);
    else if (e.key === 'Escape') close(true);
    else if (e.key === 'Tab') return close(false);
    else return;
    e.preventDefault();
    e.stopPropagation();
  };

  return (
    <div className="menu-anchor">
      <button
        ref={buttonRef}
        type="button"
        className="btn"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        disabled={disabled}
        title={title}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && !open) {
            e.preventDefault();
            setOpen(true);
          }
        }}
        data-testid={testId}
      >
        {label}{' '}
        <span className="menu-caret" aria-hidden="true">
          ▾
        </span>
      </button>
      {open && (
        <div ref={menuRef} id={menuId} role="menu" className="menu" onKeyDown={onMenuKey}>
          {items.map((item, i) => (
            <button
              key={i}
              type="button"
              role="menuitem"
              tabIndex={-1}
              className="menu-item"
              disabled={item.disabled}
              data-testid={item.testId}
              onClick={() => {
                close(true);
                item.onSelect();
              }}
            >
              <span className="menu-item-label">{item.label}</span>
              {item.hint && <span className="menu-item-hint">{item.hint}</span>}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
