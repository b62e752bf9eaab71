package sdkruntime

import (
	"sort"
	"strings"
)

// PriceJob returns the credits a job of pipeline costs in lane ("" means the price list's default lane): the
// pipeline's base credits times the lane's multiplier, at least the minimum charge. The result is not rounded.
func PriceJob(model *Model, pipeline, lane string) (float64, error) {
	if model == nil || model.Pricing == nil {
		release := ""
		if model != nil {
			release = " " + model.Release
		}
		return 0, configError("release%s has no price list", release)
	}
	p, ok := model.Pipelines[pipeline]
	if !ok || p.BaseCredits == nil {
		return 0, configError("no base price for pipeline %q in release %s", pipeline, model.Release)
	}
	if lane == "" {
		lane = model.Pricing.DefaultLane
	}
	multiplier, ok := model.Pricing.LaneMultipliers[lane]
	if !ok {
		known := make([]string, 0, len(model.Pricing.LaneMultipliers))
		for name := range model.Pricing.LaneMultipliers {
			known = append(known, name)
		}
		sort.Strings(known)
		return 0, configError("unknown processing lane %q; known: %s", lane, strings.Join(known, ", "))
	}
	return max(*p.BaseCredits*multiplier, model.Pricing.MinimumCharge), nil
}
