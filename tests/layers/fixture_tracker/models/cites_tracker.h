// The rule, then (issue 12): the checker must refuse this.
