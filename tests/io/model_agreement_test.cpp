// What the MPI ranks of a run compare before they read the model (io/model_agreement.hpp): the
// model file's text and the --set options, and the refusal that names the ranks that differ and
// in what. The refusal itself under mpirun: tests/mpi/different_models_two_ranks.sh.
#include "io/model_agreement.hpp"
#include "support/test_files.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace catena::io {
namespace {

RunOptions options_of(const std::filesystem::path& model, std::vector<std::string> overrides) {
  RunOptions o;
  o.model = model;
  o.overrides = std::move(overrides);
  return o;
}

TEST(ModelAgreement, TheInputChangesWithTheFileTextAndTheSetOptionsOnly) {
  const auto a = testing::write_temp("catena_model_agreement_a", "model.yaml", "name: a\n");
  const auto a_copy = testing::write_temp("catena_model_agreement_b", "copy.yaml", "name: a\n");
  const auto b = testing::write_temp("catena_model_agreement_c", "model.yaml", "name: b\n");
  const ModelInput given = model_input(options_of(a, {"m=1"}));
  EXPECT_EQ(model_input(options_of(a_copy, {"m=1"})), given);  // the text counts, not the path
  EXPECT_NE(model_input(options_of(b, {"m=1"})).file, given.file);
  EXPECT_EQ(model_input(options_of(b, {"m=1"})).overrides, given.overrides);
  EXPECT_NE(model_input(options_of(a, {"m=2"})).overrides, given.overrides);
  EXPECT_NE(model_input(options_of(a, {"m=1", "l=2"})).overrides, given.overrides);
  EXPECT_NE(model_input(options_of(a, {"m=1,l=2"})).overrides, model_input(options_of(a, {"m=1", "l=2"})).overrides);
  EXPECT_NE(model_input(options_of(a, {})).overrides, model_input(options_of(a, {""})).overrides);
  EXPECT_EQ(model_input(options_of(a.parent_path() / "missing.yaml", {})).file, 0U);  // cannot be read
}

TEST(ModelAgreement, RanksGivenTheSameInputAgree) {
  const std::vector<ModelInput> ranks(4, ModelInput{7, 9});
  EXPECT_FALSE(model_input_difference(ranks));
  EXPECT_FALSE(model_input_difference(std::vector<ModelInput>{{7, 9}}));
}

TEST(ModelAgreement, TheRefusalNamesTheRanksThatDifferAndInWhat) {
  const std::vector<ModelInput> ranks{{7, 9}, {7, 8}, {6, 9}, {7, 8}, {0, 9}, {6, 8}};
  const std::optional<std::string> message = model_input_difference(ranks);
  ASSERT_TRUE(message);
  EXPECT_EQ(*message,
            "the MPI ranks were not given the same model: ranks 1, 3: other --set options than rank 0; rank 2: a "
            "model file whose text differs from rank 0's; rank 4: no model file it can read (rank 0 reads one); rank "
            "5: a model file whose text differs from rank 0's and other --set options than rank 0; run every rank "
            "with the same model file and --set options (nothing was written)");
  const std::optional<std::string> root_cannot_read = model_input_difference(std::vector<ModelInput>{{0, 9}, {7, 9}});
  ASSERT_TRUE(root_cannot_read);
  EXPECT_NE(root_cannot_read->find("rank 1: a model file rank 0 cannot read"), std::string::npos) << *root_cannot_read;
}

}  // namespace
}  // namespace catena::io
