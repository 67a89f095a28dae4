#include "io/optimize_output.hpp"

#include "io/output_directory.hpp"
#include "io/summary_writer.hpp"


namespace catena::io {

OptimizeCsv::OptimizeCsv(const std::filesystem::path& directory, const std::vector<std::string>& parameters)
    : file_(directory / file_name) {
  std::string header = "iteration,evaluations,objective";
  for (const std::string& p : parameters) header += ',' + p;
  for (const std::string& p : parameters) header += ",objective:" + p;
  header += ",projected_gradient_norm\n";
  // A new file (never written through a link planted under the name), then appended to.
  write_new_file(file_, header);
  out_.open(file_, std::ios::app);
  if (!out_) throw OutputError(file_.string() + ": cannot be opened for appending");
}

void OptimizeCsv::add(const solvers::MinimizerIterate& iterate, long evaluations) {
  std::string row = std::to_string(iterate.iteration) + ',' + std::to_string(evaluations) + ',' + format_double(iterate.f);
  for (const double x : iterate.x) row += ',' + format_double(x);
  for (const double g : iterate.gradient) row += ',' + format_double(g);
  row += ',' + format_double(iterate.projected_gradient_norm) + '\n';
  out_ << row << std::flush;
  if (!out_) throw OutputError(file_.string() + ": a row could not be written");
}

std::string optimize_json(const OptimizeResult& r) {
  std::string parameters;
  for (std::size_t i = 0; i < r.parameters.size(); ++i)
    parameters += std::string(i == 0 ? "" : ",\n    ") + json_string(r.parameters[i]) +
                  ": {\"start\": " + json_number(r.start[i]) + ", \"lower\": " + json_number(r.bounds[i].lower) +
                  ", \"upper\": " + json_number(r.bounds[i].upper) + ", \"value\": " + json_number(r.values[i]) + '}';
  std::string gradient;
  for (std::size_t i = 0; i < r.gradient.size(); ++i)
    gradient += std::string(i == 0 ? "" : ", ") + json_string(r.parameters[i]) + ": " + json_number(r.gradient[i]);
  return "{\n  \"model_name\": " + json_string(r.model_name) + ",\n  \"status\": " + json_string(r.status) +
         ",\n  \"message\": " + json_string(r.message) + ",\n  \"reason\": " + json_string(r.reason) +
         ",\n  \"iterations\": " + std::to_string(r.iterations) + ",\n  \"evaluations\": " +
         std::to_string(r.evaluations) + ",\n  \"start_objective\": " + json_number(r.start_objective) +
         ",\n  \"objective\": " + json_number(r.objective) + ",\n  \"projected_gradient_norm\": " +
         json_number(r.projected_gradient_norm) + ",\n  \"start_projected_gradient_norm\": " +
         json_number(r.start_projected_gradient_norm) + ",\n  \"parameters\": {\n    " + parameters +
         "\n  },\n  \"objective_gradient\": {" + gradient + "}\n}\n";
}

}  // namespace catena::io
