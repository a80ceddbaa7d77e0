//! The tree: nodes in a `Vec` arena linked as first child and next sibling, a decision edge (a
//! move) or a chance outcome (a revealed identity) each; the subtree kept for reuse; the most
//! visited path.

use jieqi_core::{Color, Move};

/// Node arena cap: past it the tree stops growing and iterations play out from the leaf.
pub(super) const MAX_NODES: usize = 2_000_000;

pub(super) const NONE: u32 = u32::MAX;

/// One tree node: a decision edge (a move), or a chance outcome (a revealed identity) below one.
#[derive(Clone, Debug)]
pub(super) struct Node {
    /// Move into this node (for an outcome node: its chance parent's move).
    pub(super) mv: Move,
    /// Outcome nodes: revealed role index + 1; move nodes: 0.
    pub(super) reveal: u8,
    /// Move nodes whose move reveals (a hidden mover): the children are outcomes.
    pub(super) chance: bool,
    /// Side that made `mv`.
    pub(super) mover: Color,
    pub(super) first_child: u32,
    pub(super) next_sibling: u32,
    pub(super) visits: u32,
    pub(super) avail: u32,
    /// Sum of rewards for `mover`.
    pub(super) reward: f64,
}

impl Node {
    pub(super) fn new(mv: Move, mover: Color) -> Node {
        Node {
            mv,
            reveal: 0,
            chance: false,
            mover,
            first_child: NONE,
            next_sibling: NONE,
            visits: 0,
            avail: 0,
            reward: 0.0,
        }
    }
}

/// A tree in a `Vec` arena; node 0 is the root.
#[derive(Clone, Debug, Default)]
pub(super) struct Tree {
    pub(super) nodes: Vec<Node>,
}

impl Tree {
    pub(super) fn new(root_mover: Color) -> Tree {
        let mut nodes = Vec::with_capacity(1024);
        nodes.push(Node::new(
            Move::new(jieqi_core::Square::A0, jieqi_core::Square::A0),
            root_mover,
        ));
        Tree { nodes }
    }

    pub(super) fn children(&self, n: u32) -> impl Iterator<Item = u32> + '_ {
        let mut c = self.nodes[n as usize].first_child;
        std::iter::from_fn(move || {
            if c == NONE {
                None
            } else {
                let r = c;
                c = self.nodes[c as usize].next_sibling;
                Some(r)
            }
        })
    }

    pub(super) fn add_child(&mut self, parent: u32, node: Node) -> u32 {
        let i = self.nodes.len() as u32;
        let mut node = node;
        node.next_sibling = self.nodes[parent as usize].first_child;
        self.nodes.push(node);
        self.nodes[parent as usize].first_child = i;
        i
    }

    /// The child of decision node `n` for move `m`.
    pub(super) fn child_for(&self, n: u32, m: Move) -> Option<u32> {
        self.children(n).find(|&c| self.nodes[c as usize].mv == m)
    }

    /// The outcome child of chance node `n` for reveal `r` (role index + 1).
    pub(super) fn outcome_for(&self, n: u32, r: u8) -> Option<u32> {
        self.children(n)
            .find(|&c| self.nodes[c as usize].reveal == r)
    }

    /// The subtree under `root` copied into a fresh arena (root becomes node 0).
    pub(super) fn extract(&self, root: u32) -> Tree {
        let mut out = Tree {
            nodes: Vec::with_capacity(self.nodes.len()),
        };
        let mut r = self.nodes[root as usize].clone();
        r.next_sibling = NONE;
        r.first_child = NONE;
        out.nodes.push(r);
        // (old node, new parent) pairs; children are re-linked in their old order.
        let mut stack = vec![(root, 0u32)];
        while let Some((old, new)) = stack.pop() {
            let kids: Vec<u32> = self.children(old).collect();
            for &k in kids.iter().rev() {
                let mut node = self.nodes[k as usize].clone();
                node.first_child = NONE;
                let ni = out.add_child(new, node);
                stack.push((k, ni));
            }
        }
        out
    }
}

/// The most visited path from the root starting with `first`, through the most visited reveal
/// outcome, cut after the first hidden-piece move.
pub(super) fn principal_variation(tree: &Tree, first: Move) -> Vec<Move> {
    let mut pv = vec![first];
    let Some(mut node) = tree.child_for(0, first) else {
        return pv;
    };
    loop {
        if tree.nodes[node as usize].chance {
            return pv;
        }
        let next = tree
            .children(node)
            .max_by_key(|&c| (tree.nodes[c as usize].visits, std::cmp::Reverse(c)));
        match next {
            Some(n) if tree.nodes[n as usize].visits > 0 => {
                pv.push(tree.nodes[n as usize].mv);
                node = n;
            }
            _ => return pv,
        }
    }
}
