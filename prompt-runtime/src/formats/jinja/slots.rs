//! Names resolved to slots once per template set, so that rendering finds a value by a
//! number instead of comparing strings: every distinct name the templates read or bind
//! (`{{ user }}`, `{% for tool in … %}`, `{% set n = … %}`) gets a slot, and every place
//! it is written is mapped to it. Rendering then finds a loop variable by comparing
//! slots and reads each value of the context once per render, however often and
//! wherever it is written.

use super::expr::{ExprKind, visit};
use super::parser::Node;
use super::set::Templates;
use std::collections::HashMap;
use std::sync::OnceLock;

/// How many slots a render keeps its context's values in; names past it are looked up
/// in the context each time (a template set reads far fewer).
pub(super) const CACHED: usize = 64;

/// The slots of a template set: where each name is written (the address of its `Name`
/// expression, or of a loop variable's or `set` name's `String`, in the loaded templates,
/// which never change once loaded), and each slot's name.
#[derive(Debug, Default)]
pub(super) struct Slots {
    /// `(address, slot)` by the address's hash, open addressing, at most half full;
    /// address 0 marks an empty entry. Empty when the templates write no name.
    table: Vec<(usize, u32)>,
    /// `64 - log2(table.len())`: the hash's top bits index the table.
    shift: u32,
}

/// Spreads an address's bits (Fibonacci hashing): addresses of nodes differ in their
/// middle bits.
#[inline]
fn hash(address: usize, shift: u32) -> usize {
    ((address as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> shift) as usize
}

impl Slots {
    fn of(set: &Templates) -> Slots {
        let mut ids: HashMap<String, u32> = HashMap::new();
        let mut at = Vec::new();
        for name in set.names() {
            if let Some(template) = set.get(name) {
                collect(&template.nodes, &mut ids, &mut at);
            }
        }
        if at.is_empty() {
            return Slots::default();
        }
        let len = (at.len() * 2).next_power_of_two().max(2);
        let shift = 64 - len.trailing_zeros();
        let mut table = vec![(0usize, 0u32); len];
        for (address, slot) in at {
            let mut i = hash(address, shift);
            while table[i].0 != 0 && table[i].0 != address {
                i = (i + 1) & (len - 1);
            }
            table[i] = (address, slot);
        }
        Slots { table, shift }
    }

    /// The slot of the name written at `address`, if it is one of the templates'.
    #[inline]
    pub(super) fn slot(&self, address: usize) -> Option<u32> {
        let mask = self.table.len().checked_sub(1)?;
        let mut i = hash(address, self.shift);
        loop {
            let (at, slot) = *self.table.get(i)?;
            if at == address {
                return Some(slot);
            }
            if at == 0 {
                return None;
            }
            i = (i + 1) & mask;
        }
    }
}

fn id(ids: &mut HashMap<String, u32>, name: &str) -> u32 {
    if let Some(&id) = ids.get(name) {
        return id;
    }
    let next = u32::try_from(ids.len()).unwrap_or(u32::MAX);
    ids.insert(name.to_owned(), next);
    next
}

fn collect(nodes: &[Node], ids: &mut HashMap<String, u32>, at: &mut Vec<(usize, u32)>) {
    let exprs =
        |expr: &super::expr::Expr, ids: &mut HashMap<String, u32>, at: &mut Vec<(usize, u32)>| {
            visit(expr, &mut |e| {
                if let ExprKind::Name(name) = &e.kind {
                    at.push((std::ptr::from_ref(e) as usize, id(ids, name)));
                }
            });
        };
    for node in nodes {
        match node {
            Node::Text(_) | Node::Include { .. } | Node::Super(_) => {}
            Node::Output(expr) => exprs(expr, ids, at),
            Node::Scope(scope) => {
                for (name, value) in &scope.binds {
                    exprs(value, ids, at);
                    at.push((std::ptr::from_ref(name) as usize, id(ids, name)));
                }
                collect(&scope.nodes, ids, at);
            }
            Node::If(block) => {
                for (condition, body) in &block.branches {
                    exprs(condition, ids, at);
                    collect(body, ids, at);
                }
                if let Some((_, body)) = &block.otherwise {
                    collect(body, ids, at);
                }
            }
            Node::For(each) => {
                exprs(&each.iter, ids, at);
                for (name, _) in &each.targets {
                    at.push((std::ptr::from_ref(name) as usize, id(ids, name)));
                }
                if let Some(filter) = &each.filter {
                    exprs(filter, ids, at);
                }
                collect(&each.body, ids, at);
                if let Some(body) = &each.otherwise {
                    collect(body, ids, at);
                }
            }
            Node::SetAttr { value, .. } => exprs(value, ids, at),
            Node::FilterBlock(block) => {
                collect(&block.body, ids, at);
                exprs(&block.filters, ids, at);
                if let Some(name) = &block.into {
                    at.push((std::ptr::from_ref(name) as usize, id(ids, name)));
                }
            }
            Node::Set { name, value, .. } => {
                exprs(value, ids, at);
                at.push((std::ptr::from_ref(name) as usize, id(ids, name)));
            }
        }
    }
}

/// The slots of a set, made on its first render.
#[derive(Debug, Default)]
pub(super) struct SlotCache(OnceLock<Slots>);

impl Clone for SlotCache {
    // A clone's templates live elsewhere: its addresses are its own.
    fn clone(&self) -> Self {
        SlotCache::default()
    }
}

impl Templates {
    pub(super) fn slots(&self) -> &Slots {
        self.slot_cache.0.get_or_init(|| Slots::of(self))
    }
}
